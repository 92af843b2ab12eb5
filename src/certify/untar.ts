// Reading a gzipped ustar archive as it streams: the file is read, unpacked and parsed a chunk at a time, and each
// entry's data goes to its sink as it arrives, so memory stays a few chunks whatever the archive holds. Only what
// tar.ts writes is read (ustar regular files); everything else is refused, as early as it shows.
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { HarnessError } from '../errors.ts';
import { BLOCK, checksum, padding } from './tar.ts';

/** Why an archive cannot be read: it is corrupt, or it holds something a harness archive never does. */
export class ArchiveError extends HarnessError {
  override readonly name = 'ArchiveError';
  constructor(message: string) {
    super('HARNESS_ARCHIVE', message);
  }
}

/**
 * The most an archive may hold, gzipped or unpacked: a harness archive is a few megabytes (reports and a k6
 * dashboard), and a gzip bomb or an endless file must end here (docs/bounds.md).
 */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;

/** Where one entry's data goes as it arrives. Anything either method throws stops the reading and is rethrown. */
export interface EntrySink {
  write(chunk: Buffer): void;
  end(): void;
}

/** The gzipped bytes: a file's stream, or chunks a test hands over. */
export type ArchiveSource = NodeJS.ReadableStream | AsyncIterable<Buffer> | Iterable<Buffer>;

/** Called at each entry's header, once the header is found sound. */
export type OnEntry = (path: string, size: number) => EntrySink;

const field = (block: Buffer, offset: number, length: number): string => {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
};

/** Only plain octal digits, as harness and GNU tar write them: parseInt would read "12junk" as 10. */
const octalField = (block: Buffer, offset: number, length: number): number | undefined => {
  const text = field(block, offset, length).trim();
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : undefined;
};

// Control characters would reach the terminal in verify's messages; `.` and `..` parts and empty ones make two
// names for one file, or one outside the folder it is unpacked in.
const safePath = (path: string): boolean =>
  path !== '' &&
  !path.startsWith('/') &&
  !/\p{Cc}/u.test(path) &&
  !path.split('/').some((part) => part === '..' || part === '.' || part === '');

const ZERO_BLOCK = Buffer.alloc(BLOCK);

/** Where the first byte other than zero is in `bytes`, or -1; a block at a time, as the bytes are mostly zeros. */
const firstNonZero = (bytes: Buffer): number => {
  for (let at = 0; at < bytes.length; at += BLOCK) {
    const end = Math.min(at + BLOCK, bytes.length);
    if (ZERO_BLOCK.compare(bytes, at, end, 0, end - at) !== 0)
      return at + bytes.subarray(at, end).findIndex((byte) => byte !== 0);
  }
  return -1;
};

/** The entry whose data or padding is being read. */
interface OpenEntry {
  readonly path: string;
  readonly sink: EntrySink;
  dataLeft: number;
  paddingLeft: number;
}

/** A ustar parser fed the unpacked bytes in chunks of any size; holds one header block at most. */
class TarParser {
  private readonly header = Buffer.alloc(BLOCK);
  private headerFilled = 0;
  /** Bytes of tar consumed so far. */
  private offset = 0;
  private entry: OpenEntry | undefined;
  /** Where the first zero block began, once one has: the end-of-archive. */
  private endAt = -1;
  // Every path once, however many entries: bounded by the archive's size, and in verify by the manifest's.
  private readonly seen = new Set<string>();

  constructor(private readonly onEntry: OnEntry) {}

  push(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; ) {
      const taken = this.take(chunk.subarray(at));
      at += taken;
      this.offset += taken;
    }
  }

  /** Consumes the start of `bytes` and says how much of it. */
  private take(bytes: Buffer): number {
    if (this.endAt !== -1) {
      const stray = firstNonZero(bytes);
      if (stray === -1) return bytes.length;
      const at = this.offset + stray;
      throw new ArchiveError(
        `data after the end-of-archive blocks (byte ${at - (at % BLOCK)}), which tar -i would unpack and no signature covers`,
      );
    }
    const entry = this.entry;
    if (entry !== undefined && entry.dataLeft > 0) {
      const data = bytes.subarray(0, entry.dataLeft);
      entry.dataLeft -= data.length;
      entry.sink.write(data);
      if (entry.dataLeft === 0) this.endData(entry);
      return data.length;
    }
    if (entry !== undefined) {
      const skipped = Math.min(entry.paddingLeft, bytes.length);
      entry.paddingLeft -= skipped;
      if (entry.paddingLeft === 0) this.entry = undefined;
      return skipped;
    }
    const copied = bytes.copy(this.header, this.headerFilled, 0, BLOCK - this.headerFilled);
    this.headerFilled += copied;
    if (this.headerFilled === BLOCK) {
      this.headerFilled = 0;
      this.openEntry(this.offset + copied - BLOCK);
    }
    return copied;
  }

  private openEntry(at: number): void {
    const block = this.header;
    if (block.equals(ZERO_BLOCK)) {
      this.endAt = at;
      return;
    }
    const name = field(block, 0, 100);
    const prefix = field(block, 345, 155);
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (octalField(block, 148, 8) !== checksum(block))
      throw new ArchiveError(`header checksum mismatch at byte ${at}`);
    if (!safePath(path)) throw new ArchiveError(`unsafe path in archive: ${JSON.stringify(path)}`);
    if (field(block, 257, 6) !== 'ustar') throw new ArchiveError(`${path}: not a ustar header`);
    const type = field(block, 156, 1);
    if (!['0', ''].includes(type))
      throw new ArchiveError(
        `${path}: not a regular file (type ${JSON.stringify(type)}: a link, folder or other)`,
      );
    if (this.seen.has(path)) throw new ArchiveError(`${path} appears twice`);
    this.seen.add(path);
    const size = octalField(block, 124, 12);
    if (size === undefined) throw new ArchiveError(`${path}: size runs past the archive's end`);
    const sink = this.onEntry(path, size);
    const entry: OpenEntry = { path, sink, dataLeft: size, paddingLeft: padding(size).length };
    this.entry = entry;
    if (size === 0) this.endData(entry);
  }

  private endData(entry: OpenEntry): void {
    entry.sink.end();
    if (entry.paddingLeft === 0) this.entry = undefined;
  }

  /** The input ended: only after the two end-of-archive blocks is that the archive's end. */
  end(): void {
    if (this.entry !== undefined && this.entry.dataLeft > 0)
      throw new ArchiveError(`${this.entry.path}: size runs past the archive's end`);
    if (this.endAt === -1 || this.offset - this.endAt < 2 * BLOCK)
      throw new ArchiveError('archive ends without its end-of-archive blocks');
  }
}

/** Passes bytes on until more than `limit` have passed, then fails: a gzip bomb or an endless file ends there. */
const atMost = (limit: number, what: string, hint = ''): Transform => {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes <= limit) done(null, chunk);
      else
        done(
          new ArchiveError(
            `larger than ${limit} bytes ${what}, far more than a harness archive holds${hint}`,
          ),
        );
    },
  });
};

const isZlibError = (error: unknown): error is Error =>
  String((error as NodeJS.ErrnoException | undefined)?.code).startsWith('Z_');

/**
 * Reads the gzipped archive `source` to its end, handing each entry to `onEntry`. Rejects with ArchiveError on
 * corruption, entries other than regular files (links included), unsafe or repeated paths, more than `limit` bytes
 * gzipped or unpacked, and anything but zeros after the end-of-archive blocks (`tar -i` would unpack a second
 * archive there, which no signature covers: createGunzip unpacks a second gzip member too, so one there is found
 * the same way); with whatever a sink throws; and with the source's own errors (fs ones, say). Reading stops at the
 * first of these.
 */
export const readTarGz = async (
  source: ArchiveSource,
  onEntry: OnEntry,
  limit = MAX_ARCHIVE_BYTES,
): Promise<void> => {
  const parser = new TarParser(onEntry);
  // A throw in the parser fails the stream, and so the pipeline, with it.
  const settle = (step: () => void, done: (error?: Error) => void) => {
    try {
      step();
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  const tar = new Writable({
    write: (chunk: Buffer, _encoding, done) => settle(() => parser.push(chunk), done),
    final: (done) => settle(() => parser.end(), done),
  });
  try {
    await pipeline(
      source,
      atMost(limit, 'gzipped'),
      createGunzip(),
      atMost(limit, 'unpacked', ' (a gzip bomb?)'),
      tar,
    );
  } catch (error) {
    if (isZlibError(error)) throw new ArchiveError(`not a gzip file: ${error.message}`);
    throw error;
  }
};
