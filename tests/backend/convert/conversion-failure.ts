// The error a conversion is refused with, for the converter's tests: the test fails when the
// conversion succeeds or throws anything but a ConversionError.
import { expect } from 'vitest';
import { ConversionError } from '../../../backend/platform/convert/converter';

export async function conversionFailure(promise: Promise<unknown>): Promise<ConversionError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConversionError);
  return error as ConversionError;
}
