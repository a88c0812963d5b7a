export { runDemo } from "./demo.ts";
