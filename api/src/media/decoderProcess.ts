import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DecodeAnswer, DecodeRequest } from './decoder.js';
import type { ImageResult } from './images.js';
import type { PictureSet } from './pictureSets.js';

/**
 * The memory a decoding child may use (RLIMIT_DATA, set by util-linux's `prlimit` as it starts):
 * every private writable mapping and the heap, so the native memory of libvips and its decoders
 * too, which Node's own heap limit (below) does not reach. Not the address space (RLIMIT_AS):
 * Node reserves tens of GB of it without using it (WebAssembly guard regions, tsx's lexer).
 * Node itself takes a share before any picture: on Node 24 under tsx (its module hooks run in a
 * thread with an isolate of its own) the child does not start below about 1.1 GiB (measured:
 * 1 GiB fails to reserve V8's code range, 1.25 GiB starts). 3 GiB leaves libvips about 2 GiB, far
 * above a 100 MP source (MAX_INPUT_PIXELS, 400 MB as RGBA, streamed through its resize), and still
 * bounds a decoder that allocates without end. An allocation past it fails in the child alone:
 * libvips then refuses the picture (out of memory), or the child ends (V8 aborts it, or it exits
 * without an answer: the job is retried).
 */
export const DECODER_MEMORY_BYTES = 3 * 1024 ** 3;

/** The child's JavaScript heap (the results' buffers are outside it, within the limit above). */
const DECODER_HEAP_MB = 256;

/** The refusal of a picture not decoded within its job's time. */
export const PICTURE_TOO_SLOW = 'This image took too long to process';

const decoderModule = fileURLToPath(
  new URL(`./decoder${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);
const apiRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Pending {
  resolve: (result: ImageResult) => void;
  reject: (error: Error) => void;
}

/** The decoding child, started at the first picture and kept: starting Node with sharp costs seconds. */
let decoder: { child: ChildProcess; pending: Map<number, Pending>; killedForTime: boolean } | null = null;
let nextId = 1;

function startDecoder() {
  const node = [
    `--max-old-space-size=${DECODER_HEAP_MB}`,
    ...(decoderModule.endsWith('.ts') ? ['--import', 'tsx'] : []),
  ];
  const child = fork(decoderModule, [], {
    // prlimit sets the limit and runs Node in its place: the IPC channel is inherited.
    execPath: 'prlimit',
    execArgv: [`--data=${DECODER_MEMORY_BYTES}`, process.execPath, ...node],
    // Where `tsx` resolves from when running from the sources.
    cwd: apiRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...(process.env.MEDIA_DECODER_CRASH_MARKER && {
        MEDIA_DECODER_CRASH_MARKER: process.env.MEDIA_DECODER_CRASH_MARKER,
      }),
    },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = { child, pending: new Map<number, Pending>(), killedForTime: false };
  // Idle, the child keeps nothing of this process alive: a process that is done exits, and the
  // child follows when its channel closes.
  idle(child, true);
  child.on('message', (answer: DecodeAnswer) => {
    const waiting = started.pending.get(answer.id);
    if (!waiting) return;
    started.pending.delete(answer.id);
    if (started.pending.size === 0) idle(child, true);
    if ('failed' in answer) waiting.reject(new Error(`The image decoder failed: ${answer.failed}`));
    else waiting.resolve(revive(answer.result));
  });
  const ended = (code: number | null, signal: NodeJS.Signals | null) => {
    if (decoder === started) decoder = null;
    const lost = [...started.pending.values()];
    started.pending.clear();
    for (const waiting of lost) {
      // Killed (out of memory, a crash in a decoder) while decoding one file: that file's doing,
      // and trying again would do the same. With several in hand, which one did it is unknown:
      // each is retried by its job (and one that keeps killing it is dead-lettered).
      if (signal && lost.length === 1 && !started.killedForTime)
        waiting.resolve({ ok: false, reason: 'This image could not be processed within our limits' });
      else waiting.reject(new Error(`The image decoder ended (code ${code}, signal ${signal}) while decoding`));
    }
  };
  child.once('exit', ended);
  child.once('error', (error) => {
    if (decoder === started) decoder = null;
    for (const waiting of started.pending.values()) waiting.reject(error);
    started.pending.clear();
  });
  return started;
}

/** Lets this process exit while the child waits for work, or holds it while the child works. */
function idle(child: ChildProcess, isIdle: boolean) {
  const channel = (child as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
  if (isIdle) {
    child.unref();
    channel?.unref();
  } else {
    child.ref();
    channel?.ref();
  }
}

/**
 * processImage (media/images.ts) in a child process under a memory limit: a file that crashes a
 * decoder or makes it allocate without end kills only the child, and the job is told with a
 * plain reason, while this process (the API, with the inline worker) goes on serving; the next
 * picture starts a new child. The child gets the bytes and, of this process's environment, PATH
 * only: no secret. Pictures of both lanes are decoded in it at once, as they were in this process.
 */
export function processImageApart(
  bytes: Uint8Array,
  declaredType: string,
  set: PictureSet,
  lanes: number | undefined,
  decodeBy: number,
): Promise<ImageResult> {
  // A child whose channel closed (it is ending) takes no more pictures.
  if (!decoder?.child.connected) decoder = startDecoder();
  const started = decoder;
  const { child, pending } = started;
  const id = nextId++;
  return new Promise<ImageResult>((resolve, reject) => {
    // Past its job's time to decode (media/queueOptions.ts), a picture is refused and the child
    // killed, so the work cannot outlive the job and overlap a second run of it. Pictures decoded
    // beside it are lost with the child and retried by their jobs.
    const timer = setTimeout(
      () => {
        if (!pending.delete(id)) return;
        started.killedForTime = true;
        // The next picture goes to a new child, not to this one on its way out.
        if (decoder === started) decoder = null;
        child.kill('SIGKILL');
        resolve({ ok: false, reason: PICTURE_TOO_SLOW });
      },
      Math.max(0, decodeBy - Date.now()),
    );
    timer.unref();
    pending.set(id, {
      resolve: (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    idle(child, false);
    const request: DecodeRequest = { id, bytes, declaredType, set, lanes };
    child.send(request, (error) => {
      if (!error || !pending.has(id)) return;
      pending.delete(id);
      reject(error);
    });
  });
}

/** The outputs' bytes come over IPC as plain Uint8Arrays: back to Buffers, as processImage answers them. */
function revive(result: ImageResult): ImageResult {
  if (!result.ok) return result;
  const buffers = (outputs: typeof result.outputs) =>
    outputs.map((output) => ({
      ...output,
      bytes: Buffer.from(output.bytes.buffer, output.bytes.byteOffset, output.bytes.byteLength),
    }));
  return { ...result, outputs: buffers(result.outputs), previews: buffers(result.previews) };
}
