// What a person sees after output reaches a terminal emulator: xterm.js (VS Code's terminal) without a screen. A
// control sequence from a target can erase the scrollback or hide the lines after it (SGR 8); this shows the effect.
import xterm from '@xterm/headless';

export interface ScreenLine {
  readonly text: string;
  /** Every cell of it drawn invisibly (SGR 8), or the line holds no text. */
  readonly hidden: boolean;
}

/** Every line the terminal keeps (scrollback and screen) after `output` is written, as the person would read it. */
export const seenOnTerminal = async (output: string, columns = 200): Promise<ScreenLine[]> => {
  const terminal = new xterm.Terminal({
    cols: columns,
    rows: 40,
    scrollback: 10_000,
    allowProposedApi: true,
  });
  // A program's `\n` reaches the emulator as CR LF through the terminal driver (onlcr).
  await new Promise<void>((resolve) => terminal.write(output.replace(/\r?\n/g, '\r\n'), resolve));
  const buffer = terminal.buffer.active;
  const lines: ScreenLine[] = [];
  for (let row = 0; row < buffer.length; row++) {
    const line = buffer.getLine(row)!;
    const text = line.translateToString(true);
    let hidden = text.length > 0;
    for (let column = 0; column < text.length && hidden; column++)
      hidden = line.getCell(column)!.isInvisible() !== 0;
    lines.push({ text, hidden: hidden || text.length === 0 });
  }
  terminal.dispose();
  return lines;
};
