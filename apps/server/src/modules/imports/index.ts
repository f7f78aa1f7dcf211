// The imports module's public face (issue 40): archives from other services brought in as works.
export { wireImports, type ImportsModule } from './imports.module.js';
