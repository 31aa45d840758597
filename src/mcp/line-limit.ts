// Own: the SDK's stdio transport closes the whole server on a line over its buffer (exit 0, nothing said); no installed line splitter refuses one line and goes on.
import { Transform, type TransformCallback } from 'node:stream';

/** The longest MCP message stdio takes: the SDK's own buffer size. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Passes stdin on to the SDK's stdio transport one whole line at a time, and holds each line to
 * `maxBytes`: a longer one is dropped as it arrives (never held whole in memory) up to its newline,
 * and `refuse` is told its size; the lines after it go on as before.
 */
export class LineLimit extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the line being dropped, or -1 when none is. */
  private dropping = -1;

  constructor(
    private readonly maxBytes: number,
    private readonly refuse: (bytes: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const end = newline === -1 ? chunk.length : newline;
      const part = chunk.subarray(from, end);
      if (this.dropping >= 0) {
        this.dropping += part.length;
      } else if (this.pendingBytes + part.length > this.maxBytes) {
        this.dropping = this.pendingBytes + part.length;
        this.pending = [];
        this.pendingBytes = 0;
      } else if (part.length > 0) {
        this.pending.push(part);
        this.pendingBytes += part.length;
      }
      if (newline === -1) break;
      if (this.dropping >= 0) {
        this.refuse(this.dropping);
        this.dropping = -1;
      } else {
        this.push(Buffer.concat([...this.pending, Buffer.from('\n')]));
        this.pending = [];
        this.pendingBytes = 0;
      }
      from = newline + 1;
    }
    done();
  }
}
