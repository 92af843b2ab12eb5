// One of the sweep's worker processes: runs the cells it is sent, one at a time, and sends back each outcome.
import { type CellOutcome, runCell, type SweepCell } from './sweep-cells.ts';

process.on('message', async (cell: SweepCell) => {
  let outcome: CellOutcome;
  const started = performance.now();
  try {
    outcome = { ...(await runCell(cell)), ms: performance.now() - started };
  } catch (error) {
    outcome = { right: false, otherwise: [`harness error: ${String(error)}`], inconclusive: [], ms: 0 };
  }
  process.send!({ cell, outcome });
});
