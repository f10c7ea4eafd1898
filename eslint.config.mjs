// ESLint for bpeviz's browser code (bpeviz/ui/stepper): `npx eslint bpeviz/ui/stepper`
// (.ci/run). The scripts run in the browser as ES modules; their unit tests run in Node.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "build/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["bpeviz/ui/stepper/**/*.{js,mjs}"],
    ignores: ["bpeviz/ui/stepper/tests/**"],
    languageOptions: {
      ecmaVersion: 2025,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // `_` names what is left unused on purpose (a caught error, a loop's key)
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_",
        caughtErrorsIgnorePattern: "^_" }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-shadow-restricted-names": "error",
      "no-implicit-globals": "error",
      "no-restricted-syntax": ["error", {
        selector: "ImportExpression",
        message: "the browser gets one script (bpeviz.present.stage_script): no import()",
      }],
    },
  },
  {
    files: ["bpeviz/ui/stepper/tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: {
      ecmaVersion: 2025,
      sourceType: "module",
      // the fake page of stage.mjs: a window and a document of the tests' own
      globals: { ...globals.node, window: "writable", document: "writable" },
    },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
    },
  },
];
