// A JSON Schema written beside a TypeScript interface is a second source that can drift from it. These types let the
// compiler hold the two to one shape: `SameShape<Interface, FromSchema<typeof schema>>` is `true` only while they
// describe the same JSON, and `Assert` fails to compile otherwise. Types only: nothing here reaches k6 or run time.

/** Keys whose value may be undefined: JSON.stringify leaves them out, so in JSON they are optional keys. */
type MaybeAbsent<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** JSON's keys are strings: `{ [x: string]: V }` has `number` keys too to TypeScript, `Record<string, V>` not. */
type KeyOf<T> = Extract<keyof T, string>;

/**
 * T as JSON holds it: `readonly` gone (JSON has none), `x: X | undefined` and `x?: X` alike (both absent when
 * undefined), arrays and objects compared member by member.
 */
export type AsJson<T> = T extends readonly (infer Item)[]
  ? AsJson<Item>[]
  : T extends object
    ? Flat<
        { -readonly [K in Exclude<KeyOf<T>, MaybeAbsent<T>>]: AsJson<T[K]> } & {
          -readonly [K in MaybeAbsent<T> & string]?: AsJson<Exclude<T[K], undefined>>;
        }
      >
    : T;

type Flat<T> = { [K in keyof T]: T[K] };

/** Exact equality (not mere assignability, which an extra optional field on either side would pass). */
type Equal<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

export type SameShape<A, B> = Equal<AsJson<A>, AsJson<B>>;

/** `Assert<SameShape<A, B>>` compiles only when the two agree. */
export type Assert<T extends true> = T;
