// One of the sweep's worker processes: runs the cells it is sent, one at a time, and sends back each result.
import { type CellResult, runCell, type SweepCell } from './sweep-cells.ts';

process.on('message', async (cell: SweepCell) => {
  let result: CellResult;
  const started = performance.now();
  try {
    result = { ...(await runCell(cell)), ms: performance.now() - started };
  } catch (error) {
    result = { right: false, otherwise: [`harness error: ${String(error)}`], inconclusive: [], ms: 0 };
  }
  process.send!({ cell, result });
});
