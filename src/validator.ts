// ajv compiles each schema into code when asked: for harness's five schemas that was 260 ms of every command's start
// (of 610 for `--version`), paid by commands that never read a file of that kind. Each is compiled on first use.
import { Ajv, type Options, type ValidateFunction } from 'ajv';

export const validatorOf = <T = unknown>(options: Options, schema: object): (() => ValidateFunction<T>) => {
  let compiled: ValidateFunction<T> | undefined;
  return () => {
    compiled ??= new Ajv(options).compile<T>(schema);
    return compiled;
  };
};
