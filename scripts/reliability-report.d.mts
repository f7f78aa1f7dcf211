export function writeReliabilitySection(name: string, markdown: string): Promise<void>;
