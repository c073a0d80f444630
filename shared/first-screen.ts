// The first screen of a public page: what the SPA's server entry (web/src/entry-server.tsx,
// renderFirstScreen) gives the gateway's render workers (gateway/first-screen.ts).

export interface FirstScreen {
  /** what goes into #root */
  html: string;
  /** the files under web/ of the screens shown that came as chunks of their own (their styles go into the head) */
  files: string[];
}
