// The sampler moved to src/ so that the shipped `hop bench` can use it too.
export { makeZipf } from '../../src/cli/bench/zipf.js';
