/**
 * What a media job is about: its kind, and the identifier of what it makes media of (an order
 * target, an event's photo or video, an event's cover, a user's profile picture by profile name,
 * or a ready order picture whose later formats are to be made: media/jobs/). Queued as JSON.
 */
export const JOB_KINDS = ['target', 'content', 'cover', 'avatar', 'formats'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface MediaJob {
  kind: JobKind;
  id: string;
}

/** A job's key: at most one of each is waiting (the queues' uniqueness), and its name in logs. */
export const keyOf = (job: MediaJob): string => `${job.kind}:${job.id}`;

/** The fields jobs were queued with before they had a kind, by kind: such jobs may wait in a database still. */
const EARLIER_FIELDS: Record<string, JobKind> = {
  targetIdentifier: 'target',
  contentIdentifier: 'content',
  coverOf: 'cover',
  avatarOf: 'avatar',
  formatsOf: 'formats',
};

const isKind = (value: unknown): value is JobKind => JOB_KINDS.includes(value as JobKind);

/** A queued job's payload read back: `{ kind, id }`, or a job queued in the earlier shape; else it throws. */
export function mediaJobOf(payload: unknown): MediaJob {
  if (typeof payload === 'object' && payload !== null) {
    const fields = payload as Record<string, unknown>;
    if (isKind(fields.kind) && typeof fields.id === 'string') return { kind: fields.kind, id: fields.id };
    for (const [field, kind] of Object.entries(EARLIER_FIELDS))
      if (typeof fields[field] === 'string') return { kind, id: fields[field] };
  }
  throw new Error(`Not a media job: ${JSON.stringify(payload)?.slice(0, 200)}`);
}
