import { spawn } from 'node:child_process';

/** Why a run was stopped by us rather than ending on its own. */
export class RunStopped extends Error {
  constructor(
    readonly why: 'time' | 'output',
    program: string,
  ) {
    super(`${program} was stopped: ${why === 'time' ? 'past its deadline' : 'too much output'}`);
  }
}

/** A run that failed on its own: `stderr` is the bounded tail of what it said (for the log, never the uploader). */
export class RunFailed extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    /** A decoder refused a frame for its size: looked for in all it said, not only the tail. */
    readonly pictureTooLarge: boolean,
  ) {
    super(message);
  }
}

/** ffmpeg's own words when a frame is larger than `-max_pixels` lets its decoder make (or than it makes at all). */
const PICTURE_TOO_LARGE = /Picture size \d+x\d+ (?:exceeds specified max pixel count|is invalid)/;

/** The tail of stderr kept: enough for the log, bounded whatever a file makes ffmpeg print. */
const STDERR_TAIL_CHARS = 4000;

/**
 * Runs a program with an argument array (no shell), answering its stdout; killed (RunStopped)
 * at `deadline`, when its stdout passes `maxStdoutBytes`, or when `outputSize` (what it wrote to
 * disk, looked at every quarter second) passes `maxOutputBytes`. stderr is kept as a bounded tail.
 */
export function run(
  program: string,
  args: string[],
  limits: { deadline: number; maxStdoutBytes: number; outputSize?: () => Promise<number>; maxOutputBytes?: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let pictureTooLarge = false;
    let stopped: RunStopped | undefined;
    const stop = (why: 'time' | 'output') => {
      stopped ??= new RunStopped(why, program);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxStdoutBytes) return stop('output');
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      pictureTooLarge ||= PICTURE_TOO_LARGE.test(err);
    });
    const timer = setTimeout(() => stop('time'), Math.max(0, limits.deadline - Date.now()));
    const { outputSize, maxOutputBytes } = limits;
    const watch =
      outputSize && maxOutputBytes !== undefined
        ? setInterval(() => {
            outputSize().then(
              (size) => size > maxOutputBytes && stop('output'),
              () => undefined,
            );
          }, 250)
        : undefined;
    const end = () => {
      clearTimeout(timer);
      clearInterval(watch);
    };
    child.once('error', (error) => {
      end();
      reject(error);
    });
    child.once('close', (code, signal) => {
      end();
      if (stopped) reject(stopped);
      else if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new RunFailed(
            `${program} ${signal ? `was stopped (${signal})` : `exited with ${code}`}`,
            err,
            pictureTooLarge,
          ),
        );
    });
  });
}
