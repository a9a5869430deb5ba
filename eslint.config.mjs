import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import drizzle from "eslint-plugin-drizzle";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    plugins: { drizzle },
    rules: {
      // Only the drizzle handle (named db or tx everywhere) is checked, so Map#delete and friends pass.
      "drizzle/enforce-delete-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      "drizzle/enforce-update-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
    },
  },
  {
    // One rule, one place, and small enough to read: split a file by domain past 300 lines and a
    // function past 60 (tests and browser specs may group many cases in one describe callback).
    rules: { "max-lines": ["error", { max: 300 }] },
  },
  {
    files: ["app/**", "components/**", "lib/**", "cli/src/**", "bench/**", "scripts/**", "*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 60 }] },
  },
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "cli/dist/**",
      "drizzle/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
];

export default config;
