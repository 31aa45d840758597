import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { VideoChannelAllTranscriptsDocument, VideoChannelDocument, VideoSearchDocument, VideoTranscriptDocument } from '../gql/graphql';
import { codedErrors, errorsAt, ErrorList, ErrorNote, type CodedError } from '../components/Errors';
import { Usage } from '../components/Usage';

type Mode = 'search' | 'channel' | 'transcript';
const DEFAULTS: Record<Mode, string> = {
  search: 'how zippers are made',
  channel: 'https://www.videosite.example/@sandboxstudio',
  transcript: 'https://www.videosite.example/watch?v=qW3eR7tY1uI',
};

const views = (n: number | null | undefined) => (n == null ? '' : `${new Intl.NumberFormat('en-US', { notation: 'compact' }).format(n)} views`);

/** A deferred transcript: "loading" until its part of the response arrives, then the text or its error. */
function Transcript({ transcript, errors, arrived }: { transcript: { text: string } | null | undefined; errors: CodedError[]; arrived: boolean }) {
  if (errors.length > 0) return <div className="transcript">{errors.map((e, i) => <ErrorNote key={i} error={e} />)}</div>;
  if (!arrived) return <p className="transcript pending" data-testid="transcript-pending">Transcript loading…</p>;
  if (!transcript) return <p className="transcript muted">No transcript.</p>;
  return <p className="transcript" data-testid="transcript">{transcript.text}</p>;
}

function SearchResults({ query }: { query: string }) {
  const [result] = useQuery({ query: VideoSearchDocument, variables: { query } });
  const errors = codedErrors(result.error);
  const search = result.data?.videositeSearch;
  const transcriptErrors = (i: number) => errorsAt(errors, 'videositeSearch', 'videos', i, 'transcript');
  return (
    <>
      <ErrorList errors={errors} except={errors.filter((e) => e.path?.at(-1) === 'transcript')} />
      {result.fetching && !search && <p className="muted">Loading…</p>}
      {search && (
        <section data-testid="videos">
          <p className="muted">{search.searchInformation?.totalResults?.toLocaleString('en-US')} results for “{search.query}”</p>
          {search.videos.map((video, i) => (
            <article key={video.id ?? i} className="video card" data-testid="video">
              {video.thumbnail && <img src={video.thumbnail.url} alt="" className="thumb" onError={(e) => (e.currentTarget.style.visibility = 'hidden')} />}
              <div>
                <h4><a href={video.link ?? undefined}>{video.title}</a></h4>
                <p className="muted">{video.channel?.title}{video.channel?.isVerified ? ' ✓' : ''} · {views(video.viewCount)} · {video.length} · {video.publishedTime}</p>
                <Transcript transcript={video.transcript} errors={transcriptErrors(i)} arrived={video.transcript !== undefined} />
              </div>
            </article>
          ))}
        </section>
      )}
      <Usage extensions={result.extensions} />
    </>
  );
}

function ChannelResults({ url, allTranscripts }: { url: string; allTranscripts: boolean }) {
  const [result] = useQuery({ query: VideoChannelDocument, variables: { url }, pause: allTranscripts });
  const [all] = useQuery({ query: VideoChannelAllTranscriptsDocument, variables: { url }, pause: !allTranscripts });
  const shown = allTranscripts ? all : result;
  const errors = codedErrors(shown.error);
  const channel = result.data?.videositeChannel;
  return (
    <>
      <ErrorList errors={errors} except={errors.filter((e) => e.path?.at(-1) === 'transcript')} />
      {!allTranscripts && channel && (
        <section data-testid="channel">
          <div className="card channel">
            {channel.channel?.avatarUrl && <img src={channel.channel.avatarUrl} alt="" className="logo" onError={(e) => (e.currentTarget.style.display = 'none')} />}
            <div>
              <h2>{channel.channel?.title} <span className="muted">{channel.channel?.handle}</span></h2>
              <p className="muted">
                {channel.channel?.subscriberCount?.toLocaleString('en-US')} subscribers · {channel.channel?.videoCount} videos · joined {channel.about?.joinedDate} · {views(channel.about?.viewCount)}
              </p>
              <p>{channel.channel?.description}</p>
            </div>
          </div>
          {channel.highlightedVideo && (
            <article className="card video" data-testid="video">
              <div>
                <h4>Highlighted: <a href={channel.highlightedVideo.link ?? undefined}>{channel.highlightedVideo.title}</a></h4>
                <p className="muted">{views(channel.highlightedVideo.viewCount)}</p>
                <Transcript
                  transcript={channel.highlightedVideo.transcript}
                  errors={errorsAt(errors, 'videositeChannel', 'highlightedVideo', 'transcript')}
                  arrived={channel.highlightedVideo.transcript !== undefined}
                />
              </div>
            </article>
          )}
          {channel.videosSections.map((section, s) => (
            <div key={s}>
              <h3>{section.title}</h3>
              <div className="shelf">
                {section.videos.map((video, i) => (
                  <div key={video.id ?? i} className="shelf-item">
                    {video.thumbnail && <img src={video.thumbnail.url} alt="" className="thumb" onError={(e) => (e.currentTarget.style.visibility = 'hidden')} />}
                    <a href={video.link ?? undefined}>{video.title}</a>
                    <span className="muted">{views(video.viewCount)} · {video.length}</span>
                  </div>
                ))}
              </div>
            </div>
          ))}
        </section>
      )}
      <Usage extensions={shown.extensions} />
    </>
  );
}

function TranscriptResult({ url }: { url: string }) {
  const [result] = useQuery({ query: VideoTranscriptDocument, variables: { url } });
  const errors = codedErrors(result.error);
  const inline = errorsAt(errors, 'videositeTranscript');
  const transcript = result.data?.videositeTranscript;
  return (
    <>
      <ErrorList errors={errors} except={inline} />
      <section className="card" data-testid="transcript-result">
        {inline.map((e, i) => <ErrorNote key={i} error={e} />)}
        {transcript && (
          <>
            <h3>{transcript.title}</h3>
            <p className="muted">{transcript.video?.channelName} · {views(transcript.video?.viewCount)} · {transcript.video?.publishedDate}</p>
            <p data-testid="transcript">{transcript.text}</p>
          </>
        )}
      </section>
      <Usage extensions={result.extensions} />
    </>
  );
}

export function VideoPage() {
  const [mode, setMode] = useState<Mode>('search');
  const [input, setInput] = useState(DEFAULTS.search);
  const [submitted, setSubmitted] = useState({ ...DEFAULTS });
  const [allTranscripts, setAllTranscripts] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted({ ...submitted, [mode]: input.trim() });
  };
  return (
    <div>
      <form onSubmit={submit} className="search">
        <select
          value={mode}
          aria-label="Video lookup"
          onChange={(e) => {
            const next = e.target.value as Mode;
            setMode(next);
            setInput(submitted[next]);
          }}
        >
          <option value="search">Search (transcripts deferred)</option>
          <option value="channel">Channel (URL)</option>
          <option value="transcript">One video's transcript (URL)</option>
        </select>
        <input value={input} onChange={(e) => setInput(e.target.value)} aria-label="Query or URL" />
        <button type="submit">Go</button>
        {mode === 'channel' && (
          <label className="tick">
            <input type="checkbox" name="allTranscripts" checked={allTranscripts} onChange={(e) => setAllTranscripts(e.target.checked)} /> every video's transcript
          </label>
        )}
      </form>
      {mode === 'search' && <SearchResults query={submitted.search} />}
      {mode === 'channel' && <ChannelResults url={submitted.channel} allTranscripts={allTranscripts} />}
      {mode === 'transcript' && <TranscriptResult url={submitted.transcript} />}
    </div>
  );
}
