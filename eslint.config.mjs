// The JavaScript check of the web client (make jscheck): eslint's recommended rules over the browser modules,
// plus the habits the client keeps (no var, const where nothing is reassigned, == only against null).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/pokerroom/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "off",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
];
