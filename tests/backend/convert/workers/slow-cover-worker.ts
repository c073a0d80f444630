// The conversion worker, except that each cover file takes COVER_DELAY_MS more to be written, as
// libvips' encoding can on a machine whose cores are busy.
import { basename } from 'node:path';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import convertTask from '../../../../backend/platform/convert/convert-worker';

export const COVER_DELAY_MS = 6_000;

type ToFile = (this: Sharp, file: string) => Promise<OutputInfo>;
const output = sharp.prototype as unknown as { toFile: ToFile };
const toFile = output.toFile;
output.toFile = async function slowCover(file) {
  if (basename(file).startsWith('cover.')) await new Promise((resolve) => setTimeout(resolve, COVER_DELAY_MS));
  return toFile.call(this, file);
};

export default function slowCoverTask(task: Parameters<typeof convertTask>[0]): unknown {
  return convertTask(task);
}
