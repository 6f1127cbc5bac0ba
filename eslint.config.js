// ESLint (flat config): typescript-eslint for the TypeScript and JavaScript, @graphql-eslint for the schema
// (schema/*.graphql) and the client operations (client/*.graphql), Prettier's config last so formatting is
// Prettier's alone. `npm run lint` runs it with `prettier --check`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import prettierConfig from 'eslint-config-prettier/flat';

const CODE = ['{src,test,bench,db,scripts,client,bin}/**/*.{ts,js,mjs}', '*.{ts,js}'];
const SCHEMA = 'schema/*.graphql';
const OPERATIONS = 'client/**/*.graphql';

export default tseslint.config(
  {
    // Generated (codegen output, the printed schema), built or local data.
    ignores: ['node_modules/', 'dist/', 'data/', '.tmp/', 'coverage/', '**/__generated__/', 'schema.graphql'],
  },

  {
    files: CODE,
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      // Everything runs on Node: its globals are the ones this config itself runs with.
      globals: Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly'])),
    },
    rules: {
      // `_name` marks a parameter a signature needs and the body does not use (Express handlers, it.each rows).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read parsed JSON answers field by field (GraphQLBody.data, REST bodies): any is the honest type there.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.d.ts'],
    rules: {
      // Ambient module declarations (test/types/) declare classes that are only referenced as `typeof X`.
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },

  {
    files: [SCHEMA],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: SCHEMA } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlPlugin.configs['flat/schema-recommended'].rules,
      ...graphqlPlugin.configs['flat/schema-relay'].rules,
      // One-line descriptions are written inline ("…"), longer ones as blocks ("""…"""): the rule allows one style.
      '@graphql-eslint/description-style': 'off',
      // Every type and every root field says what it is, except the Relay boilerplate around a node type and the
      // root types themselves. Root fields are selected here, not with rootField: true, which in 4.4.1 matches no
      // type once there are two root types (it joins their names with "," inside the regular expression).
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          DirectiveDefinition: true,
          FieldDefinition: true,
          ignoredSelectors: [
            '[type=ObjectTypeDefinition][name.value=/(Connection|Edge)$/]',
            '[type=ObjectTypeDefinition][name.value=/^(Query|Mutation)$/]',
            'FieldDefinition:not(:matches(ObjectTypeDefinition, ObjectTypeExtension)[name.value=/^(Query|Mutation)$/] > FieldDefinition)',
          ],
        },
      ],
      // The names the specification fixes: the Graph API's adset_schedule, comment_count and comments edge, username.
      '@graphql-eslint/no-typename-prefix': 'off',
      // Objects with an identity carry `id: ID!`. These are values inside an answer, with none of their own
      // (MessageTag.id names the mentioned object, a string in the Graph API).
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            suffixes: ['Connection', 'Edge', 'Payload', 'Result', 'Validation', 'Conversion'],
            types: [
              'PageInfo',
              'AdSetIssue',
              'AdRecommendation',
              'AdSetViolation',
              'AdObjectId',
              'LearningStageInfo',
              // Computed for an ad set or a targeting when asked (issue 21): no identity of their own.
              'TargetingSentenceLine',
              'DeliveryEstimate',
              'DailyOutcome',
              'MessageDeliveryEstimate',
              'AdStudyResults',
              'AdCreativeStorySpec',
              'AdCreativeLinkData',
              'AdCreativeCallToAction',
              'AdRuleHistoryResult',
              'ReactionCount',
              'AdRuleHistoryActionTaken',
              'AdRuleExecution',
              'AdStudyComparison',
              // An ad set's nested specs (issue 20): values inside it, with no identity of their own.
              'Targeting',
              'GeoLocations',
              'GeoLocationKey',
              'GeoCity',
              'FlexibleSpec',
              'DetailedTargeting',
              'PromotedObject',
              'AttributionSpec',
              'FrequencyControlSpec',
              'AdSetScheduleEntry',
              'BidConstraints',
              'AdLabel',
              'OperationStatus',
              'MessageTag',
              'CommentLike',
              'AuthScopes',
              'DateFormatChange',
              'DateFormatFinding',
              'DateFormatSuggestion',
              'DateFormatPart',
              'DateFormatPlace',
              'DateFormatScanTarget',
              'DateFormatScan',
              // A report's rows and their per-action values are values, not objects with an identity.
              'InsightsRow',
              'ActionStat',
              'ActionValue',
            ],
          },
        },
      ],
      '@graphql-eslint/relay-edge-types': [
        'error',
        {
          withEdgeSuffix: true,
          // The Relay specification allows any object as an edge's node; a like (CommentLike) has no id of its own.
          shouldImplementNode: false,
          // Plain lists of values (memberships, issues, violations) and the connections' `nodes` shortcut are deliberate.
          listTypeCanWrapOnlyEdgeType: false,
        },
      ],
    },
  },

  {
    files: [OPERATIONS],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: SCHEMA, documents: OPERATIONS } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: graphqlPlugin.configs['flat/operations-recommended'].rules,
  },

  prettierConfig,
);
