import { SignJWT, jwtVerify } from 'jose';
import { databaseNow } from '../../db/dialect';
import { linkKey } from '../../platform/auth/secrets';
import type { BackendContext } from '../../platform/context';

// The signed link `/download/<token>?user_id=…&document_id=…&filename=…` (docs/moredoc.md
// §9): an HS256 JWT whose `jti` is `<userId>.<hash>.<documentId>`, valid
// `download.url_duration` seconds. Its key is never the login key and never MOREDOC's public
// default: it is `download.secret_key` when the admin set one of their own, otherwise a
// secret generated once into the database (`ctx.downloadLinkSecret`, platform/auth/secrets.ts).
// Its expiry is set and checked by the database's clock: a link lives a minute by default, and
// the machine that serves it is seldom the one that made it.
const DEFAULT_LIFETIME_SECONDS = 60;

export interface DownloadGrant {
  userId: number;
  hash: string;
  documentId: number;
}

async function signingKey(app: BackendContext): Promise<Uint8Array> {
  return linkKey((await app.settings.snapshot()).str('download', 'secret_key'), app.downloadLinkSecret);
}

const jtiOf = (grant: DownloadGrant) => `${grant.userId}.${grant.hash}.${grant.documentId}`;

/** The URL the download RPCs answer with; `fileName` is the document's title and extension. */
export async function downloadUrl(app: BackendContext, grant: DownloadGrant, fileName: string): Promise<string> {
  const seconds = (await app.settings.snapshot()).int('download', 'url_duration');
  const lifetime = seconds > 0 ? seconds : DEFAULT_LIFETIME_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(jtiOf(grant))
    .setExpirationTime(Math.floor((await databaseNow(app.db)).getTime() / 1000) + lifetime)
    .sign(await signingKey(app));
  const query = new URLSearchParams({
    user_id: String(grant.userId),
    document_id: String(grant.documentId),
    filename: fileName,
  });
  return `/download/${token}?${query.toString()}`;
}

/**
 * The grant of a valid, unexpired token whose `jti` names the same user and document as the
 * link's query; null otherwise (MOREDOC writes its 400 on a mismatch and serves anyway).
 */
export async function verifyDownload(
  app: BackendContext,
  token: string,
  query: { userId: string; documentId: string },
): Promise<DownloadGrant | null> {
  let jti: unknown;
  const now = await databaseNow(app.db);
  try {
    ({
      payload: { jti },
    } = await jwtVerify(token, await signingKey(app), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'jti'],
      currentDate: now,
    }));
  } catch {
    return null;
  }
  const match = typeof jti === 'string' ? /^(\d{1,15})\.([0-9a-f]{32})\.(\d{1,15})$/.exec(jti) : null;
  if (!match) return null;
  const [, userId = '', hash = '', documentId = ''] = match;
  if (userId !== query.userId || documentId !== query.documentId) return null;
  return { userId: Number(userId), hash, documentId: Number(documentId) };
}
