import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * The cores this process may use (WORKERS=auto): the CPUs it may run on, bounded by the container's
 * CPU quota when it has one (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`),
 * rounded up, at least 1.
 */
export function cpusAvailable(cgroupRoot = '/sys/fs/cgroup'): number {
  const quota = cgroupCpuQuota(cgroupRoot);
  const cpus = availableParallelism();
  return Math.max(1, quota === null ? cpus : Math.min(cpus, Math.ceil(quota)));
}

/** The CPU quota in cores, or null when there is none (or no cgroup file says). */
export function cgroupCpuQuota(root: string): number | null {
  const v2 = readOrNull(`${root}/cpu.max`)?.split(/\s+/);
  if (v2) return v2[0] === 'max' ? null : ratio(v2[0], v2[1]);
  return ratio(readOrNull(`${root}/cpu/cpu.cfs_quota_us`), readOrNull(`${root}/cpu/cpu.cfs_period_us`));
}

function ratio(quota: string | null | undefined, period: string | null | undefined): number | null {
  const q = Number(quota);
  const p = Number(period);
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : null;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}
