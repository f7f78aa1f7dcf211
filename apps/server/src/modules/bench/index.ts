// The bench module's public face: routes only the benchmarks enable (BENCH_ROUTES).
export { wireBench } from './bench.module.js';
export { benchRoutes } from './bench.routes.js';
