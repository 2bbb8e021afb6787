/** One problem with a request's input: where it is (['query', 'limit'], ['body', 'product_ids', 2]), what is wrong, a type. */
export interface FieldProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Input a route refused after schema validation (a cursor, a price range): a 422 in the surface's validation envelope. */
export class RequestValidationError extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(problems[0]?.msg ?? 'invalid request');
    this.name = 'RequestValidationError';
  }
}

export function invalidInput(loc: Array<string | number>, msg: string, type = 'value_error'): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type }]);
}
