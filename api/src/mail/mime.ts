/**
 * Reads what the dev mailbox and the tests need of a mail as nodemailer writes it: its headers,
 * subject and addresses, and its text and HTML parts decoded (quoted-printable, base64, 7bit).
 * Not a general MIME parser: enough for the mails this API sends.
 */
export interface ReadMail {
  from: string;
  to: string;
  subject: string;
  date: string;
  text: string;
  html: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

export function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < input.length; i++) {
    const hex = input[i] === '=' ? input.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(input[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

/** The leaf parts of a (possibly multipart) part. */
function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  const pieces = part.body.split(`--${boundary}`).slice(1);
  return pieces
    .filter((piece) => !piece.startsWith('--'))
    .flatMap((piece) => leaves(splitPart(piece.replace(/^\r?\n/, ''))));
}

export function readMail(raw: string): ReadMail {
  const message = splitPart(raw);
  const header = (name: string) => decodeHeader(message.headers.get(name) ?? '');
  const parts = leaves(message);
  const of = (type: string) =>
    decodeBody(
      parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type)) ?? {
        headers: new Map(),
        body: '',
      },
    ).replace(/\r\n/g, '\n');
  return {
    from: header('from'),
    to: header('to'),
    subject: header('subject'),
    date: header('date'),
    text: of('text/plain'),
    html: of('text/html'),
  };
}
