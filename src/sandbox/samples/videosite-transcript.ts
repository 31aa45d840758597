/** get_videosite_transcript (contract 2.4): `response` is the title, a newline, then the text. Minimal for now. */
export function videositeTranscript(url: string): Record<string, unknown> {
  return { response: 'Sandbox video\nHello and welcome.', metadata: { id: 'dQw4w9WgXcQ', title: 'Sandbox video', channel_link: url } };
}
