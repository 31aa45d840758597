/** run_videosite_search (contract 2.8): minimal for now; the video-site issue completes it. */
export function videositeSearch(query: string): Record<string, unknown> {
  return { search_parameters: { engine: 'videosite', q: query }, search_information: { total_results: 0 }, videos: [], shorts: [], suggestions: [] };
}
