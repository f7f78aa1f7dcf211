// The bench module's public face: routes only the benchmarks enable (BENCH_ROUTES).
export { benchRoutes } from './bench.routes.js';
