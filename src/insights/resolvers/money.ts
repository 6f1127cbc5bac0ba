import { GraphQLScalarType, Kind } from 'graphql';

/** An exact decimal in major units, as rules/metrics.ts prints money: "12.30", "-0.05", "1230", "0.123457". */
const DECIMAL = /^-?\d{1,20}(?:\.\d{1,12})?$/;

const decimal = (value: unknown): string => {
  if (typeof value !== 'string' || !DECIMAL.test(value)) throw new TypeError('Money is a decimal string in major units, such as "12.34".');
  return value;
};

/**
 * Money: a scalar that carries the text /v24.0 prints (rules/metrics.ts printMoney and the cost ratios), so both
 * surfaces answer the same digits. A string, not a Float: a float loses exactness past 2^53 minor units and some
 * clients print JPY's whole yen as "1230.0". Output only today; as input it takes the same text.
 */
export const MoneyScalar = new GraphQLScalarType<string, string>({
  name: 'Money',
  description: "A sum of money in the account currency's major units, as an exact decimal string.",
  serialize: decimal,
  parseValue: decimal,
  parseLiteral: (ast) => decimal(ast.kind === Kind.STRING ? ast.value : undefined),
});
