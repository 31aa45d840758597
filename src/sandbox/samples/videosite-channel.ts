/** get_videosite_channel (contract 2.3): minimal for now; the video-site issue completes it. */
export function videositeChannel(url: string): Record<string, unknown> {
  return { channel: { id: 'UCsandbox0000000000000001', title: 'Sandbox Channel', handle: '@sandbox', subscribers: 1200 }, search_parameters: { engine: 'videosite_channel', channel_id: url } };
}
