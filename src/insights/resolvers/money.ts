import { GraphQLScalarType, Kind } from 'graphql';
import { badInput } from '../../errors/index.ts';

/** An exact decimal in major units, as rules/metrics.ts prints money: "12.30", "-0.05", "1230", "0.123457". */
const DECIMAL = /^-?\d{1,20}(?:\.\d{1,12})?$/;

const decimal = (value: unknown): string => {
  if (typeof value !== 'string' || !DECIMAL.test(value)) throw badInput('Money', 'Money is a decimal string in major units, such as "12.34".');
  return value;
};

/**
 * Money: a scalar that carries the text /v24.0 prints (rules/metrics.ts printMoney and the cost ratios), so both
 * surfaces answer the same digits. A string, not a Float: 0.1 + 0.2 must not become 0.30000000000000004 on
 * the way to a client, and JPY prints no decimals where a float would print "1230.0" in some clients.
 */
export const MoneyScalar = new GraphQLScalarType<string, string>({
  name: 'Money',
  description: "A sum of money in the account currency's major units, as an exact decimal string.",
  serialize: decimal,
  parseValue: decimal,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw badInput('Money', 'Money is a decimal string in major units, such as "12.34".');
    return decimal(ast.value);
  },
});
