// Stands in for undici's Milo HTTP parser in the functions' bundles (see bundle-plugins.mjs):
// undici loads it only when told to use Milo (UNDICI_USE_MILO, or a dispatcher's `useMilo`
// option, which this product never sets), and then learns what to do.
module.exports = {
  setup() {
    throw new Error(
      "undici's Milo HTTP parser is left out of this bundle: unset UNDICI_USE_MILO (and no useMilo option): undici then parses with llhttp",
    );
  },
};
