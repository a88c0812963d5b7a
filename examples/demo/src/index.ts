export { type DemoResult, runDemo } from "./demo.ts";
