// Message descriptions in the style of the .proto files: fields in declaration order with
// their wire type. They are plain data, the one spelling of the API: the backend's encoder
// and decoders (backend/wire/message.ts) work from them, and the SPA's types are their
// JSON shape, `Wire<typeof X>` (the descriptions live in shared/messages/).

type Scalar = 'int32' | 'int64' | 'float' | 'string' | 'bool' | 'time';
type Repeated = 'int32[]' | 'int64[]' | 'float[]' | 'string[]' | 'bool[]';
export interface EnumSpec {
  enum: Readonly<Record<string, number>>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMessage = MessageType<any>;
export type FieldSpec = Scalar | Repeated | EnumSpec | AnyMessage | readonly [AnyMessage];
export type Fields = Record<string, FieldSpec>;

export interface MessageType<F extends Fields> {
  readonly name: string;
  readonly fields: F;
}

type ScalarValue<S> = S extends 'int32' | 'int64' | 'float'
  ? number
  : S extends 'string'
    ? string
    : S extends 'bool'
      ? boolean
      : S extends 'time'
        ? Date | null
        : never;
type FieldValue<S> = S extends `${infer B}[]`
  ? ScalarValue<B>[]
  : S extends Scalar
    ? ScalarValue<S>
    : S extends EnumSpec
      ? number
      : S extends readonly [MessageType<infer F>]
        ? Infer<F>[]
        : S extends MessageType<infer F>
          ? Infer<F> | null
          : never;
/** The decoded request type of a message (every field present, zero-defaulted). */
export type Infer<F extends Fields> = { -readonly [K in keyof F]: FieldValue<F[K]> };
export type Decoded<M> = M extends MessageType<infer F> ? Infer<F> : never;

type LooseScalar<S> = S extends 'int32' | 'int64' | 'float'
  ? number | null
  : S extends 'string'
    ? string | null
    : S extends 'bool'
      ? boolean | number | null
      : S extends 'time'
        ? string | Date | null
        : never;
type LooseField<S> = S extends `${infer B}[]`
  ? readonly LooseScalar<B>[] | null
  : S extends Scalar
    ? LooseScalar<S>
    : S extends EnumSpec
      ? number | null
      : S extends readonly [MessageType<infer F>]
        ? readonly Loose<F>[] | null
        : S extends MessageType<infer F>
          ? Loose<F> | null
          : never;
/** What the encoder accepts: any subset of the fields, DB-style values (0/1 booleans, ISO strings). */
export type Loose<F extends Fields> = { [K in keyof F]?: LooseField<F[K]> };
export type Encodable<M> = M extends MessageType<infer F> ? Loose<F> : never;

type ScalarWire<S> = S extends 'int32' | 'int64' | 'float'
  ? number
  : S extends 'string' | 'time'
    ? string
    : S extends 'bool'
      ? boolean
      : never;
type FieldWire<S> = S extends `${infer B}[]`
  ? ScalarWire<B>[]
  : S extends EnumSpec
    ? number
    : S extends readonly [MessageType<infer F>]
      ? WireOf<F>[]
      : S extends MessageType<infer F>
        ? WireOf<F>
        : ScalarWire<S>;
/** The JSON a message's fields encode to: every field may be omitted (zero values are), snake_case keys. */
export type WireOf<F extends Fields> = { -readonly [K in keyof F]?: FieldWire<F[K]> };
/** The JSON of a message, what the backend answers and the SPA reads or sends: `Wire<typeof Document>`. */
export type Wire<M> = M extends MessageType<infer F> ? WireOf<F> : never;

export function message<const F extends Fields>(name: string, fields: F): MessageType<F> {
  return { name, fields };
}

export const Empty = message('Empty', {});
export type EmptyMessage = typeof Empty;
