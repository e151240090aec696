import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'models/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // An object literal with a getter or setter gets a hidden class of its own every time it is evaluated, and
    // V8 keeps hidden classes in the old generation: on a request path that promotes the whole request from the
    // young generation (src/pipeline/finish.ts, JournalingSink). Use a class.
    files: ['src/**/*.ts', 'workers/**/*.ts', 'workers/**/*.cts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ObjectExpression > Property[kind='get'], ObjectExpression > Property[kind='set']",
          message: 'No accessors in object literals: each evaluation makes a new hidden class (old generation). Use a class.',
        },
      ],
    },
  },
);
