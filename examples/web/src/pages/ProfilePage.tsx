import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { onResponseBytes, responseBytes } from '../client';
import { PhotosocialProfileViewDocument, ProfessionalProfileViewDocument } from '../gql/graphql';
import { codedErrors, ErrorList } from '../components/Errors';
import { Usage } from '../components/Usage';

const PHOTO_FIELDS = ['fullName', 'biography', 'followerCount', 'followingCount', 'mediaCount', 'isVerified', 'category', 'externalUrl', 'profilePicUrl', 'pronouns'] as const;
const PRO_FIELDS = ['fullName', 'headline', 'summary', 'location', 'network', 'industry', 'skills', 'avatarUrl', 'positionGroups', 'education'] as const;

/**
 * The REST payload the sandbox sends for the whole default profiles (natgeo, sam-rivera), with its
 * image URLs on a five-digit port: what a client would download without the gateway.
 */
const REST_BYTES = { photo: 12_173, pro: 7_574 };

type Kind = 'photo' | 'pro';

function useBytes(operation: string): number | undefined {
  const [bytes, setBytes] = useState(responseBytes.get(operation));
  useEffect(() => onResponseBytes(() => setBytes(responseBytes.get(operation))), [operation]);
  return bytes;
}

function Value({ value }: { value: unknown }) {
  if (value == null) return <span className="muted">null</span>;
  if (typeof value === 'string' && /^https?:\/\//.test(value)) return <a href={value}>{value}</a>;
  if (typeof value === 'object') return <pre>{JSON.stringify(value, null, 2)}</pre>;
  return <>{String(value)}</>;
}

export function ProfilePage() {
  const [kind, setKind] = useState<Kind>('photo');
  const [input, setInput] = useState('natgeo');
  const [who, setWho] = useState({ photo: 'natgeo', pro: 'sam-rivera' });
  const [photoTicks, setPhotoTicks] = useState<Record<string, boolean>>({ fullName: true, followerCount: true, isVerified: true, biography: true });
  const [proTicks, setProTicks] = useState<Record<string, boolean>>({ fullName: true, headline: true, location: true });
  const fields = kind === 'photo' ? PHOTO_FIELDS : PRO_FIELDS;
  const ticks = kind === 'photo' ? photoTicks : proTicks;
  const setTicks = kind === 'photo' ? setPhotoTicks : setProTicks;
  const flags = Object.fromEntries(fields.map((f) => [f, !!ticks[f]]));

  const [photo, rePhoto] = useQuery({
    query: PhotosocialProfileViewDocument,
    variables: { username: who.photo, ...(flags as Record<(typeof PHOTO_FIELDS)[number], boolean>) },
    pause: kind !== 'photo',
    requestPolicy: 'network-only',
  });
  const [pro, rePro] = useQuery({
    query: ProfessionalProfileViewDocument,
    variables: { handle: who.pro, ...(flags as Record<(typeof PRO_FIELDS)[number], boolean>) },
    pause: kind !== 'pro',
    requestPolicy: 'network-only',
  });
  const result = kind === 'photo' ? photo : pro;
  const profile: Record<string, unknown> | null | undefined = kind === 'photo' ? photo.data?.photosocialProfile : pro.data?.professionalnetProfile;
  const bytes = useBytes(kind === 'photo' ? 'PhotosocialProfileView' : 'ProfessionalProfileView');
  const errors = codedErrors(result.error);

  const switchKind = (next: Kind) => {
    setKind(next);
    setInput(who[next]);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setWho({ ...who, [kind]: input.trim() });
  };
  return (
    <div>
      <form onSubmit={submit} className="search">
        <select value={kind} onChange={(e) => switchKind(e.target.value as Kind)} aria-label="Profile kind">
          <option value="photo">Photo-social (username)</option>
          <option value="pro">Professional network (handle or URL)</option>
        </select>
        <input value={input} onChange={(e) => setInput(e.target.value)} aria-label="Username or handle" />
        <button type="submit">Show</button>
      </form>
      <div className="grid two">
        <fieldset className="card" data-testid="field-toggles">
          <legend>Fields to fetch</legend>
          {fields.map((f) => (
            <label key={f} className="tick">
              <input type="checkbox" name={f} checked={!!ticks[f]} onChange={(e) => setTicks({ ...ticks, [f]: e.target.checked })} /> {f}
            </label>
          ))}
          <p className="muted">Each field is behind <code>@include(if:)</code>: one persisted document, and the gateway resolves and sends only the ticked fields.</p>
        </fieldset>
        <section className="card" data-testid="profile">
          <h3>Response</h3>
          <p data-testid="bytes">
            {bytes !== undefined ? (
              <>
                <strong>{bytes.toLocaleString('en-US')} B</strong> from the gateway vs <strong>{REST_BYTES[kind].toLocaleString('en-US')} B</strong> for the full REST payload ({Math.round((100 * bytes) / REST_BYTES[kind])}%)
              </>
            ) : (
              '…'
            )}
          </p>
          <ErrorList errors={errors} onRetry={() => (kind === 'photo' ? rePhoto : rePro)({ requestPolicy: 'network-only' })} />
          {profile && (
            <dl data-testid="profile-fields">
              {Object.entries(profile)
                .filter(([key]) => key !== '__typename')
                .map(([key, value]) => (
                  <div key={key} className="row" data-field={key}>
                    <dt>{key}</dt>
                    <dd><Value value={value} /></dd>
                  </div>
                ))}
            </dl>
          )}
          <Usage extensions={result.extensions} />
        </section>
      </div>
    </div>
  );
}
