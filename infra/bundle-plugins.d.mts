import type { Plugin } from "esbuild";

/** The esbuild plugins of every function's bundle (see bundle-plugins.mjs). */
declare const plugins: Plugin[];
export default plugins;
