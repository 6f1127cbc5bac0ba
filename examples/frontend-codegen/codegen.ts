// GraphQL Code Generator for a frontend in its own repository, against adgraph's schema. Copy this file, the
// tsconfig.json flags and src/ad-set.graphql into your project, then:
//   npm install -D @graphql-codegen/cli @graphql-codegen/client-preset typescript
//   npm install @graphql-typed-document-node/core graphql
//   ADGRAPH_SCHEMA=http://localhost:4000/graphql npx graphql-codegen --config codegen.ts
// The schema is read by introspection from a running server, or from a copy of adgraph's schema.graphql.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: process.env.ADGRAPH_SCHEMA ?? 'http://localhost:4000/graphql',
  documents: ['src/**/*.graphql'],
  ignoreNoDocuments: true,
  generates: {
    // A TypedDocumentNode per operation (AdSetFormDocument ...): graphql-request, urql and Apollo Client type the
    // variables and the result from it.
    'src/gql/': {
      preset: 'client',
      // Fragments are shared shapes, read straight through (no useFragment unmasking).
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        // Enums as string unions ('PAUSED' | 'ACTIVE'): no runtime enum objects, and values compare as strings.
        enumsAsTypes: true,
        // The generated files import each other as ./graphql.ts: tsconfig needs allowImportingTsExtensions
        // (with noEmit, or a bundler) next to verbatimModuleSyntax.
        importExtension: '.ts',
        // Every custom scalar must be mapped: an unmapped one is a build error rather than `any`.
        strictScalars: true,
        // The scalars as they travel in JSON (each one's @specifiedBy in the schema says what it is).
        scalars: {
          DateTime: 'string',
          BigInt: 'number | string',
          Money: 'string',
          EmailAddress: 'string',
          JSON: 'unknown',
        },
      },
    },
  },
};

export default config;
