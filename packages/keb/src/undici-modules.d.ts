// undici's internal modules (`undici.ts` loads them instead of its index) have no declarations of
// their own: each is typed where it is imported, from the package's public types.
declare module "undici/lib/*" {
  const value: unknown;
  export default value;
}
