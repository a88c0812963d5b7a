// Stands in for undici's Milo HTTP parser in the functions' bundles (see bundle-plugins.mjs):
// undici loads it only when UNDICI_USE_MILO is set, and then learns what to do.
module.exports = {
  setup() {
    throw new Error(
      "undici's Milo HTTP parser is left out of this bundle: unset UNDICI_USE_MILO (undici then parses with llhttp)",
    );
  },
};
