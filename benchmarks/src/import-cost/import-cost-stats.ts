/** One child process's figures (times in ms, memory in bytes). */
export type ImportCostSample = {
  importMs: number;
  countMs: number;
  rssBefore: number;
  rssAfterImport: number;
  /** RSS when the child finished (after the first count, when it made one). */
  rss: number;
};

/** A cost: time and resident memory added. */
export type Cost = { ms: number; rssMb: number };

/** What `import-cost.json` holds besides the header. */
export type ImportCostFigures = {
  /** The import: its median time, and the median RSS after it minus a bare process's median RSS. */
  import: Cost;
  /** The first count of each default counter: its time, and the RSS it adds on top of the import. */
  firstCount: { gptTokenizer: Cost; tiktoken: Cost };
  bareRssMb: number;
  meetsTarget: boolean;
};

const MB = 1e6;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Medians of the samples, and whether the import meets `target`. */
export function summarize(
  samples: {
    bare: ImportCostSample[];
    core: ImportCostSample[];
    'count-gpt': ImportCostSample[];
    'count-tiktoken': ImportCostSample[];
  },
  target: Cost,
): ImportCostFigures {
  const bareRss = median(samples.bare.map((sample) => sample.rss));
  const coreRss = median(samples.core.map((sample) => sample.rss));
  const importCost = { ms: median(samples.core.map((sample) => sample.importMs)), rssMb: (coreRss - bareRss) / MB };
  const countCost = (runs: ImportCostSample[]): Cost => ({
    ms: median(runs.map((sample) => sample.countMs)),
    rssMb: (median(runs.map((sample) => sample.rss)) - coreRss) / MB,
  });
  return {
    import: importCost,
    firstCount: { gptTokenizer: countCost(samples['count-gpt']), tiktoken: countCost(samples['count-tiktoken']) },
    bareRssMb: bareRss / MB,
    meetsTarget: importCost.ms <= target.ms && importCost.rssMb <= target.rssMb,
  };
}
