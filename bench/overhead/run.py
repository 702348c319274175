#!/usr/bin/env python3
"""spinelprof overhead benchmark: one command, prints a table of ratios.

Builds Spinel-shaped C programs (programs/*.c) in several variants with the
same clang and flags, runs them interleaved over several rounds (every
variant of a program once per round, the order rotating), and prints median
wall and CPU time per variant, the ratio to plain -O2 and a geometric-mean
row; then the microbenchmarks (ns per instrumented call+return, ns per
sample at depth 10/50/200), max RSS and binary size added, and the compile
time the plugin adds on a generated Spinel-shaped C file of >= 50 000 lines;
and the fixed cost of a run that does nothing (start-up and exit).

    bench/overhead/run.py [--build DIR] [--quick] [--levers] [--callgrind]

Variants: plain (clang -O2), off (spinel-prof cc, SPINEL_PROFILE=0),
on (the same binary sampling at 1 kHz), finstr (-finstrument-functions with
the minimal out-of-line TLS shadow-stack hooks of hooks.c), pg (-pg).
--levers adds: pushleaves (SPINEL_PROFILE_LEAF_MAX_SIZE=0: small leaves
pushed like every other method, the default before PC-named leaves), all
(SPINEL_PROFILE_FRAMES=all), lean (=lean: no frame for the program's
`inline` methods either), late (the pass after the -O2
pipeline instead of before it), le (local-exec instead of initial-exec
TLS), notail (no pop before self tail calls), atomic (the previous
push/pop: the depth store a release atomic, no TBAA type, and no pop
before self tail calls), finstr-ai (-finstrument-functions-after-inlining);
in the compile-time part it adds two columns, leaves pushed and no alloc
sites (SPINEL_PROFILE_ALLOC_SITES=0).
--baseline DIR adds base: spinel-prof cc of another spinelprof build
(DIR, e.g. an older commit's), sampling at 1 kHz like on, to measure a
change of the plugin side by side (programs and compile time); in the
Spinel part every spinel-prof variant runs with both builds.
With SPINEL_HOME set to an installed Spinel, ten of Spinel's own
benchmarks run at the sizes users run (SPINEL_BENCHMARKS: 0.3-1.7 s each),
built with Spinel's own driver: plain (clang), off, on at 100 Hz, on at
1 kHz, on at gperftools' delivered rate (measured first: samples in its
profile / CPU s), gperftools (the plain build with -lprofiler,
CPUPROFILE_FREQUENCY=1000); each build linked at four code placements
(--placements), the rounds taking them in turn; medians of wall
(primary) and CPU time,
per-benchmark ratios, geomean and worst, the delivered rates, and the
paired ratios (paired.py) with the targets of issue 17 judged on them.
The alloc part compares, on allocating programs, the CPU-profiling
build with the same binary also sampling allocations
(SPINEL_PROFILE_ALLOC=1, default rate), and a build without allocation
marks (SPINEL_PROFILE_ALLOC_SITES=0). Nothing here is a pass/fail test.
"""
import argparse
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import paired  # noqa: E402

SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS_DIR = os.path.join(HERE, 'programs')

# name -> (full-size argument, --quick argument); each full run takes
# roughly 0.2-0.4 s with plain -O2 on a 2-core machine of 2026.
PROGRAMS = {
    'fib': ('38', '30'),
    'tak': ('40', '4'),
    'ackermann': ('100', '10'),
    'binary_trees': ('15', '12'),
    'ray': ('1000', '150'),
    'json': ('2000', '200'),
    'raise': ('4000000', '300000'),
    'fiber': ('600000', '60000'),
    'loops': ('20', '2'),
}
BASE_VARIANTS = ['plain', 'off', 'on', 'finstr', 'pg']
LEVER_VARIANTS = ['pushleaves', 'all', 'lean', 'late', 'le', 'notail', 'atomic', 'finstr-ai']
# Spinel's own benchmarks at the sizes a user's run has: 0.3-1.7 s each with
# clang-19 -O2 on a 2-core machine of 2026 (the default sizes of some run
# 2-20 ms, where the fixed cost per run is all one measures). File in
# $SPINEL_HOME/benchmark, full-size arguments, --quick arguments (None: not
# run with --quick), and the arguments under --callgrind (valgrind runs a
# program ~50x slower; a tenth of the work or less, where the code's share
# of instructions is the same).
SPINEL_BENCHMARKS = [
    ('json_parse.rb', [], None, []),
    ('nqueens.rb', [], None, []),
    ('bm_binary_trees.rb', ['16'], [], ['14']),
    ('bm_ao_render.rb', ['96'], None, ['24']),
    ('bm_nbody.rb', ['5000000'], [], ['500000']),
    ('bm_spectral_norm.rb', ['3000'], None, ['400']),
    ('bm_fasta.rb', ['500000'], [], ['100000']),
    ('bm_huffman.rb', ['10000000'], None, ['1000000']),
    ('template.rb', [], None, []),
    ('bm_gcbench.rb', [], None, []),
]
# The Spinel part's variants: plain (Spinel's driver with clang), gperftools
# (the plain build linked with -lprofiler, CPUPROFILE_FREQUENCY=1000), and
# spinel-prof cc's build off, at 100 Hz, 1 kHz and at the rate gperftools
# delivered; with --baseline each spinel-prof variant once more with the
# other build ("base-" prefix).
SPINEL_PROF_VARIANTS = ['off', 'on100', 'on1k', 'ongp']
# The runtime's default SPINEL_PROFILE_HZ (runtime/spinelprof_flags.h) and
# the variant that runs at it: the targets are checked there.
DEFAULT_HZ = 100
DEFAULT_VARIANT = 'on100'
GPERFTOOLS_HZ = 1000

# Code placements of the Spinel part: each build is linked once per
# placement with the program's code shifted by a multiple of 64 / N
# bytes (a 64-byte-aligned section of only that much padding linked
# before it), and round r runs placement r mod N. Functions start 16-byte
# aligned, so four placements put every function at each of its four
# offsets in a 64-byte line once: the ratios average over where the hot
# loops fall, which one placement alone decides (bm_fasta off moved from
# x0.83 to x1.14 with the shift, the same instructions run).
PLACEMENT_CHOICES = (1, 2, 4)
PLACEMENT_LINE = 64

# The allocation-heavy programs of the alloc part.
ALLOC_PROGRAMS = ['binary_trees', 'json']

# -gdwarf-4: valgrind 3.22 cannot read clang 19's DWARF 5 line tables.
CFLAGS = ['-O2', '-gline-tables-only', '-gdwarf-4', '-w']


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_cmd(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit('command failed (%d): %s\n%s' %
                         (r.returncode, ' '.join(map(shlex.quote, cmd)), r.stderr[-3000:]))
    return r.stdout


def timed_rusage(cmd, env=None, cwd=None, rss=True):
    """Runs cmd with stdout captured; returns (wall s, CPU s, max RSS KB,
    stdout). CPU time comes from wait4; max RSS from /usr/bin/time when
    there is one (the child Python forks starts with Python's own RSS) and
    rss is true (otherwise the program is the child itself)."""
    out_file = tempfile.TemporaryFile()
    err_file = tempfile.TemporaryFile()
    rss_file = tempfile.NamedTemporaryFile(prefix='rss', delete=False)
    rss_file.close()
    full = (['/usr/bin/time', '-f', '%M', '-o', rss_file.name] + cmd
            if rss and os.path.exists('/usr/bin/time') else cmd)
    start = time.perf_counter()
    p = subprocess.Popen(full, env=env, cwd=cwd, stdout=out_file, stderr=err_file)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    out_file.seek(0)
    err_file.seek(0)
    out = out_file.read().decode(errors='replace')
    if p.returncode != 0:
        raise SystemExit('%s exited %d: %s' % (' '.join(cmd), p.returncode,
                                               err_file.read().decode(errors='replace')[-2000:]))
    rss = ru.ru_maxrss
    try:
        rss = int(open(rss_file.name).read().split()[-1])
    except (ValueError, IndexError):
        pass
    os.unlink(rss_file.name)
    return wall, ru.ru_utime + ru.ru_stime, rss, out


def rotated(variants, rnd):
    """The variants in round rnd's order: each round starts one later, so
    no variant always runs first (or right after another)."""
    return variants[rnd % len(variants):] + variants[:rnd % len(variants)]


def median(xs):
    return statistics.median(xs) if xs else float('nan')


def spread(xs):
    """(max - min) / median."""
    return (max(xs) - min(xs)) / median(xs) if xs and median(xs) > 0 else float('nan')


def geomean(xs):
    xs = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')


def gperftools_samples(path):
    """The sample count of a gperftools CPU profile (binary format: a
    header of 5 words, then records count, depth, depth PCs; the trailer
    0, 1, 0), or None when there is none."""
    try:
        data = open(path, 'rb').read()
    except OSError:
        return None
    words = len(data) // 8
    if words < 5:
        return None
    hdr = struct.unpack_from('<5Q', data, 0)
    if hdr[0] != 0 or hdr[1] != 3:
        return None
    i, total = 5, 0
    while i + 2 <= words:
        count, depth = struct.unpack_from('<2Q', data, 8 * i)
        if count == 0 and depth == 1:
            return total
        total += count
        i += 2 + depth
    return None


def placement_object(clang, directory, shift):
    """Writes DIRECTORY/placement-SHIFT.o, an object holding only SHIFT
    bytes of code space at a 64-byte boundary, kept by --gc-sections (flag
    R: SHF_GNU_RETAIN): linked before a program, it moves all the code
    after it by SHIFT. Returns its path."""
    base = os.path.join(directory, 'placement-%d' % shift)
    with open(base + '.s', 'w') as f:
        f.write('\t.section .text.spinelprof_placement,"axR",@progbits\n'
                '\t.p2align 6\n\t.skip %d, 0xcc\n'
                '\t.section .note.GNU-stack,"",@progbits\n' % shift)
    run_cmd([clang, '-c', base + '.s', '-o', base + '.o'])
    return base + '.o'


def git_describe(path):
    """', commit abc1234' (with '-dirty' when modified) for a directory in a
    git work tree, or ''."""
    try:
        r = subprocess.run(['git', '-C', path, 'rev-parse', '--short', 'HEAD'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError:
        return ''
    if r.returncode != 0:
        return ''
    dirty = subprocess.run(['git', '-C', path, 'status', '--porcelain', '-uno'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout.strip()
    return ', commit %s%s' % (r.stdout.strip(), '-dirty' if dirty else '')


def build_source(build):
    """The source directory of a spinelprof build directory (CMakeCache)."""
    try:
        for line in open(os.path.join(build, 'CMakeCache.txt')):
            if line.startswith('CMAKE_HOME_DIRECTORY:'):
                return line.split('=', 1)[1].strip()
    except OSError:
        pass
    return build


def build_facts(build):
    """A spinelprof build directory, its source's commit and when its
    spinel-prof was linked (a build can be older or newer than its
    source's HEAD)."""
    stamp = build_stamp(build)
    linked = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(stamp)) if stamp else '?'
    return '%s (source %s%s; tool, plugin and runtime last linked %s)' % (
        build, build_source(build), git_describe(build_source(build)), linked)


def build_stamp(build):
    """The newest modification time of a build's tool, plugin and runtime."""
    files = [os.path.join(build, f) for f in ('bin/spinel-prof', 'lib/SpinelProf.so',
                                              'lib/libspinelprof_rt.a')]
    return max((os.path.getmtime(f) for f in files if os.path.exists(f)), default=0)


def machine_facts():
    model = '?'
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                model = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    return '%s, %d vCPUs, Linux %s, load average %s' % (
        model, os.cpu_count(), os.uname().release, ' '.join('%.2f' % l for l in os.getloadavg()))


class Bench:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build)
        self.tool = os.path.join(self.build, 'bin', 'spinel-prof')
        self.plugin = os.path.join(self.build, 'lib', 'SpinelProf.so')
        self.rtlib = os.path.join(self.build, 'lib', 'libspinelprof_rt.a')
        for f in (self.tool, self.plugin, self.rtlib):
            if not os.path.exists(f):
                raise SystemExit('missing %s: build spinelprof first (ninja -C %s)' % (f, self.build))
        self.clang = args.clang or self.cached_clang()
        self.opt = os.path.join(os.path.dirname(os.path.realpath(self.clang)), 'opt')
        self.work = os.path.abspath(args.work)
        os.makedirs(os.path.join(self.work, 'run'), exist_ok=True)
        self.inc = ['-I' + os.path.join(SRC_ROOT, 'examples'), '-I' + PROGRAMS_DIR]
        self.baseline_tool = (os.path.join(os.path.abspath(args.baseline), 'bin', 'spinel-prof')
                              if args.baseline else None)
        if self.baseline_tool and not os.path.exists(self.baseline_tool):
            raise SystemExit('missing %s: build the baseline first' % self.baseline_tool)
        self.base_env = {k: v for k, v in os.environ.items()
                         if not k.startswith(('SPINEL_PROFILE', 'CPUPROFILE'))}
        self.gperftools = False
        self.gp_hz = 0
        self.callgrind_args = {}

    def cached_clang(self):
        cache = os.path.join(self.build, 'CMakeCache.txt')
        for line in open(cache):
            if line.startswith('SPINELPROF_CLANG:'):
                return line.split('=', 1)[1].strip()
        return shutil.which('clang') or 'clang'

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    # ---- building --------------------------------------------------------
    def compile_variant(self, prog, variant, out):
        src = os.path.join(PROGRAMS_DIR, prog + '.c')
        env = dict(self.base_env)
        common = CFLAGS + self.inc
        if variant == 'plain':
            cmd = [self.clang] + common + [src, '-lm', '-o', out]
        elif variant in ('prof', 'all', 'lean'):
            if variant != 'prof':
                env['SPINEL_PROFILE_FRAMES'] = variant
            cmd = [self.tool, 'cc'] + common + [src, '-lm', '-o', out]
        elif variant == 'base':
            cmd = [self.baseline_tool, 'cc'] + common + [src, '-lm', '-o', out]
        elif variant in ('finstr', 'finstr-ai'):
            flag = ('-finstrument-functions' if variant == 'finstr'
                    else '-finstrument-functions-after-inlining')
            cmd = [self.clang] + common + [flag, src, self.hooks_obj(), '-lm', '-o', out]
        elif variant == 'pg':
            cmd = [self.clang] + common + ['-pg', src, '-lm', '-o', out]
        elif variant == 'pushleaves':
            env['SPINEL_PROFILE_LEAF_MAX_SIZE'] = '0'
            cmd = [self.tool, 'cc'] + common + [src, '-lm', '-o', out]
        elif variant == 'late':
            env['SPINEL_PROFILE_STAGE'] = 'late'
            cmd = [self.tool, 'cc'] + common + [src, '-lm', '-o', out]
        elif variant in ('notail', 'atomic'):
            # The pass alone on unoptimized IR, then the -O2 pipeline without
            # the plugin, so without its pop-before-self-tail-call pass.
            # atomic: the push/pop rewritten to the previous design first
            # (the depth store a release atomic, no TBAA type).
            ll = out + '.ll'
            run_cmd([self.clang] + common + ['-S', '-emit-llvm', '-Xclang',
                                              '-disable-llvm-passes', src, '-o', ll], env)
            run_cmd([self.opt, '-load-pass-plugin', self.plugin, '-passes=spinelprof',
                     '-S', ll, '-o', out + '.inst.ll'], env)
            if variant == 'atomic':
                text = open(out + '.inst.ll').read()
                text, slots = re.subn(r'(store volatile ptr @__spinelprof_desc\.[^,]+, ptr %spinelprof\.slot, align 8(?:, !dbg !\d+)?), !tbaa !\d+',
                                      r'\1', text)
                text, depths = re.subn(r'store volatile (i32 %spinelprof\.(?:next|depth), ptr %spinelprof\.stack), align 4((?:, !dbg !\d+)?), !tbaa !\d+',
                                       r'store atomic volatile \1 syncscope("singlethread") release, align 4\2', text)
                text, loads = re.subn(r'(%spinelprof\.(?:offset|depth) = load [^\n]*), !tbaa !\d+', r'\1', text)
                if not slots or depths < slots or loads != 2 * text.count('%spinelprof.offset = load'):
                    raise SystemExit('atomic variant: unexpected IR in %s.inst.ll' % out)
                open(out + '.inst.ll', 'w').write(text)
            cmd = [self.clang, '-O2', '-w', out + '.inst.ll', self.rtlib, '-lm', '-o', out]
        elif variant == 'le':
            ll = out + '.ll'
            run_cmd([self.tool, 'cc'] + common + ['-S', '-emit-llvm', src, '-o', ll], env)
            text = open(ll).read()
            text = re.sub(r'(@__spinelprof_stack = external )thread_local\(initialexec\)',
                          r'\1thread_local(localexec)', text)
            open(ll, 'w').write(text)
            cmd = [self.clang, '-O2', '-w', ll, self.rtlib, '-lm', '-o', out]
        else:
            raise ValueError(variant)
        run_cmd(cmd, env)

    def hooks_obj(self):
        obj = self.path('hooks.o')
        if not os.path.exists(obj):
            run_cmd([self.clang, '-O2', '-c', os.path.join(HERE, 'hooks.c'), '-o', obj])
        return obj

    def binary(self, prog, variant):
        build_variant = 'prof' if variant in ('off', 'on') else variant
        return self.path('bin', '%s.%s' % (prog, build_variant))

    def build_all(self, progs, variants):
        os.makedirs(self.path('bin'), exist_ok=True)
        built = set()
        for prog in progs:
            for v in variants:
                exe = self.binary(prog, v)
                if exe in built:
                    continue
                self.compile_variant(prog, 'prof' if v in ('off', 'on') else v, exe)
                built.add(exe)
        log('built %d binaries in %s' % (len(built), self.path('bin')))

    # ---- running ---------------------------------------------------------
    def run_env(self, variant):
        env = dict(self.base_env)
        if variant == 'off':
            env['SPINEL_PROFILE'] = '0'
        elif variant != 'plain' and variant not in ('finstr', 'finstr-ai', 'pg'):
            env['SPINEL_PROFILE'] = self.path('run', 'profile.folded')
            env['SPINEL_PROFILE_HZ'] = str(self.args.hz)
            env['SPINEL_PROFILE_QUIET'] = '1'
            if self.args.timeline_mb is not None:
                env['SPINEL_PROFILE_TIMELINE_MB'] = str(self.args.timeline_mb)
        return env

    def run_programs(self, progs, variants):
        os.makedirs(self.path('run'), exist_ok=True)
        results = {(p, v): [] for p in progs for v in variants}
        outputs = {}
        for rnd in range(self.args.rounds):
            log('round %d/%d' % (rnd + 1, self.args.rounds))
            for prog in progs:
                arg = PROGRAMS[prog][1 if self.args.quick else 0]
                order = rotated(variants, rnd)
                for v in order:
                    wall, cpu, rss, out = timed_rusage([self.binary(prog, v), arg],
                                                       env=self.run_env(v), cwd=self.path('run'))
                    results[(prog, v)].append((wall, cpu, rss))
                    first = outputs.setdefault(prog, out)
                    if out != first:
                        raise SystemExit('%s (%s) printed something else than plain:\n%s\n%s'
                                         % (prog, v, first, out))
        return results

    def print_table(self, title, progs, variants, results):
        print('\n## %s\n' % title)
        print('Median of %d interleaved runs; ratio = variant / plain (CPU time; wall in brackets).'
              % self.args.rounds)
        head = '| program | plain wall s | plain CPU s |' + ''.join(
            ' %s |' % v for v in variants if v != 'plain')
        print(head)
        print('|' + '---|' * (3 + len(variants) - 1))
        ratios = {v: [] for v in variants}
        wall_ratios = {v: [] for v in variants}
        for prog in progs:
            pw = median([r[0] for r in results[(prog, 'plain')]])
            pc = median([r[1] for r in results[(prog, 'plain')]])
            row = '| %s | %.3f | %.3f |' % (prog, pw, pc)
            for v in variants:
                if v == 'plain':
                    continue
                w = median([r[0] for r in results[(prog, v)]])
                c = median([r[1] for r in results[(prog, v)]])
                ratios[v].append(c / pc)
                wall_ratios[v].append(w / pw)
                row += ' %.3f (%.3f) |' % (c / pc, w / pw)
            print(row)
        row = '| geometric mean | | |'
        for v in variants:
            if v != 'plain':
                row += ' %.3f (%.3f) |' % (geomean(ratios[v]), geomean(wall_ratios[v]))
        print(row)
        return ratios

    def print_targets(self, progs, ratios):
        if 'on' not in ratios or 'finstr' not in ratios:
            return
        print('\nPer-program target: added cost at 1 kHz <= max(2%, 1/3 of -finstrument-functions\' added cost)')
        for i, prog in enumerate(progs):
            on = ratios['on'][i] - 1
            fi = ratios['finstr'][i] - 1
            limit = max(0.02, fi / 3)
            print('  %-13s on %+6.1f%%  finstr %+7.1f%%  limit %5.1f%%  %s' % (
                prog, 100 * on, 100 * fi, 100 * limit, 'ok' if on <= limit else 'MISSED'))
        g = geomean(ratios['on']) - 1
        print('  geometric mean at 1 kHz: %+.1f%% (target <= 3%%): %s' % (100 * g, 'ok' if g <= 0.03 else 'MISSED'))

    def print_rss_size(self, progs, results):
        print('\n## Memory and size\n')
        print('| program | max RSS plain KB | added at 1 kHz KB | binary plain B | added B (spinel-prof cc) |')
        print('|---|---|---|---|---|')
        for prog in progs:
            rp = median([r[2] for r in results[(prog, 'plain')]])
            ro = median([r[2] for r in results[(prog, 'on')]])
            sp = os.path.getsize(self.binary(prog, 'plain'))
            so = os.path.getsize(self.binary(prog, 'on'))
            print('| %s | %d | %+d | %d | %+d |' % (prog, rp, ro - rp, sp, so - sp))

    # ---- callgrind -------------------------------------------------------
    def callgrind(self, progs, variants):
        if not shutil.which('valgrind'):
            print('\n(valgrind not installed: no instruction counts)')
            return
        print('\n## Instructions executed (callgrind, sampling off), ratio to plain\n')
        vs = [v for v in variants if v != 'on']
        print('| program | plain Ir |' + ''.join(' %s |' % v for v in vs if v != 'plain'))
        print('|' + '---|' * (1 + len(vs)))
        ratios = {v: [] for v in vs}
        for prog in progs:
            arg = PROGRAMS[prog][1]
            counts = {}
            for v in vs:
                # Sampling off: valgrind runs the program ~50x slower, so
                # samples would cost ~50x more per instruction counted.
                env = self.run_env('off' if v not in ('plain', 'finstr', 'finstr-ai', 'pg') else v)
                r = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + self.path('run', 'callgrind.out'),
                                    self.binary(prog, v), arg], env=env,
                                   cwd=self.path('run'), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
                m = re.search(r'Collected : (\d+)', r.stderr)
                counts[v] = int(m.group(1)) if m else float('nan')
            row = '| %s | %d |' % (prog, counts['plain'])
            for v in vs:
                if v != 'plain':
                    ratios[v].append(counts[v] / counts['plain'])
                    row += ' %.3f |' % (counts[v] / counts['plain'])
            print(row)
        print('| geometric mean | |' + ''.join(' %.3f |' % geomean(ratios[v]) for v in vs if v != 'plain'))

    # ---- microbenchmarks ---------------------------------------------------
    def callbench(self):
        """ns added per instrumented call+return."""
        src = os.path.join(HERE, 'micro', 'callbench.c')
        tls = os.path.join(HERE, 'micro', 'model_tls.c')
        n = '20000000' if self.args.quick else '200000000'
        exes = {}
        # --all-frames: by default the method, a small leaf, is named by
        # its program counter and gets no push.
        builds = {
            'plain': [self.clang] + CFLAGS + [src],
            'spinelprof (pushed)': [self.tool, 'cc', '--all-frames'] + CFLAGS + [src],
            'finstr (out-of-line call)': [self.clang] + CFLAGS + ['-finstrument-functions', src, self.hooks_obj()],
            'model: store, IE TLS': [self.clang] + CFLAGS + ['-DMODEL=1', src],
            'model: decrement, IE TLS': [self.clang] + CFLAGS + ['-DMODEL=2', src],
            'model: store, LE TLS': [self.clang] + CFLAGS + ['-DMODEL=3', src],
            'model: store, stack via TLS pointer': [self.clang] + CFLAGS + ['-DMODEL=4', src],
            'model: store + generation word': [self.clang] + CFLAGS + ['-DMODEL=5', src],
            'model: depth+generation in one word, 32-bit pop': [self.clang] + CFLAGS + ['-DMODEL=6', src],
            'model: depth+generation in one word, 64-bit pop': [self.clang] + CFLAGS + ['-DMODEL=7', src],
        }
        os.makedirs(self.path('bin'), exist_ok=True)
        for name, cmd in builds.items():
            exe = self.path('bin', 'callbench.%d' % len(exes))
            run_cmd(cmd + [tls, '-o', exe], dict(self.base_env))
            exes[name] = exe
        env = dict(self.base_env, SPINEL_PROFILE='0')
        times = {k: [] for k in exes}
        for _ in range(max(3, self.args.rounds)):
            for name, exe in exes.items():
                times[name].append(timed_rusage([exe, n], env=env)[1])
        base = median(times['plain'])
        print('\n## Cost per instrumented call+return (micro/callbench.c: %s calls of a noinline method)\n' % n)
        print('| variant | ns per call | added ns per call |')
        print('|---|---|---|')
        for name in exes:
            t = median(times[name])
            print('| %s | %.2f | %+.2f |' % (name, t / int(n) * 1e9, (t - base) / int(n) * 1e9))
        if shutil.which('valgrind'):
            small = '1000000'
            irs = {}
            for name, exe in exes.items():
                r = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + self.path('run', 'callgrind.out'), exe, small],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                m = re.search(r'Collected : (\d+)', r.stderr)
                irs[name] = int(m.group(1)) if m else 0
            print('\nInstructions added per call+return (callgrind, %s calls): ' % small +
                  ', '.join('%s %.1f' % (k, (v - irs['plain']) / int(small)) for k, v in irs.items() if k != 'plain'))

    def interruptbench(self):
        """What one timer event costs a memory-heavy thread, by scheme
        (micro/interruptbench.c, plain C: no profiler involved)."""
        src = os.path.join(HERE, 'micro', 'interruptbench.c')
        exe = self.path('bin', 'interruptbench')
        os.makedirs(self.path('bin'), exist_ok=True)
        run_cmd([self.clang] + CFLAGS + ['-pthread', src, '-o', exe], dict(self.base_env))
        iters, rounds = ('3000000', '2') if self.args.quick else ('30000000', str(max(5, self.args.rounds)))
        print('\n## Cost of a timer event to a busy thread (micro/interruptbench.c: '
              'random stores over 64 MB on CPU 0, %s steps)\n' % iters)
        sys.stdout.flush()
        r = subprocess.run([exe, '64', iters, rounds], stdout=subprocess.PIPE, universal_newlines=True)
        print(r.stdout, end='')

    def samplebench(self):
        """ns per sample at shadow-stack depths 10, 50, 200."""
        src = os.path.join(HERE, 'micro', 'depthbench.c')
        exe = self.path('bin', 'depthbench')
        os.makedirs(self.path('bin'), exist_ok=True)
        run_cmd([self.tool, 'cc'] + CFLAGS + [src, '-o', exe], dict(self.base_env))
        count = '20000' if self.args.quick else '200000'
        print('\n## Cost per sample (micro/depthbench.c: %s SIGPROFs sent to itself at each depth)\n' % count)
        print('Thread CPU ns per signal, median of %d runs; "off" is an empty handler '
              '(the kernel\'s delivery cost), "on" the profiler\'s handler.\n' % max(3, self.args.rounds))
        print('| depth | off ns | on ns | ns per sample (on - off) |')
        print('|---|---|---|---|')
        folded = self.path('run', 'depth.folded')
        for depth in (10, 50, 200):
            offs, ons = [], []
            for _ in range(max(3, self.args.rounds)):
                offs.append(float(timed_rusage([exe, str(depth), count],
                                               env=dict(self.base_env, SPINEL_PROFILE='0'))[3]))
                env = dict(self.base_env, SPINEL_PROFILE=folded, SPINEL_PROFILE_QUIET='1')
                ons.append(float(timed_rusage([exe, str(depth), count], env=env)[3]))
            off, on = median(offs), median(ons)
            print('| %d | %.0f | %.0f | %.0f |' % (depth, off, on, on - off))

    def startup(self):
        """What a run costs that does nothing: fib.c returning at once
        (argument 1), plain, off and on (and base with --baseline),
        interleaved; the profiler's start-up (its native-symbol table)
        and exit (writing the profile) are all the difference."""
        variants = ['plain', 'off', 'on'] + (['base'] if self.args.baseline else [])
        self.build_all(['fib'], variants)
        os.makedirs(self.path('run'), exist_ok=True)
        runs = 20 if self.args.quick else 300
        walls = {v: [] for v in variants}
        for rnd in range(runs):
            order = rotated(variants, rnd)
            for v in order:
                wall = timed_rusage([self.binary('fib', v), '1'], env=self.run_env(v),
                                    cwd=self.path('run'), rss=False)[0]
                walls[v].append(wall * 1e3)
        print('\n## Fixed cost per run (fib.c 1: a program that returns at once)\n')
        print('Median wall ms of %d interleaved runs; added = variant - plain, '
              'paired by run.\n' % runs)
        print('| variant | ms | added ms |')
        print('|---|---|---|')
        for v in variants:
            added = [w - p for w, p in zip(walls[v], walls['plain'])]
            print('| %s | %.2f | %s |' % (v, median(walls[v]),
                                         '' if v == 'plain' else '%+.2f' % median(added)))

    def compile_time(self, variants):
        lines = 5000 if self.args.quick else 52000
        src = self.path('large.c')
        run_cmd([sys.executable, os.path.join(HERE, 'gen_large.py'), '--lines', str(lines), '-o', src])
        n_lines = sum(1 for _ in open(src))
        rounds = 1 if self.args.quick else 3
        # With the pushleaves lever: the same compile without PC-named leaves,
        # and without allocation-site marks; with --baseline: the other build's spinel-prof cc.
        columns = [('plain', None, None), ('spinel-prof cc', {}, self.tool)]
        if 'pushleaves' in variants:
            columns.append(('leaves pushed', {'SPINEL_PROFILE_LEAF_MAX_SIZE': '0'}, self.tool))
            # Frames alone: the allocation-site marks are half of what
            # the plugin adds (results/2026-11-24-compile.md).
            columns.append(('no alloc sites', {'SPINEL_PROFILE_ALLOC_SITES': '0'}, self.tool))
        if self.baseline_tool:
            columns.append(('base', {}, self.baseline_tool))
        times = {name: [] for name, _, _ in columns}
        for _ in range(rounds):
            for name, extra, tool in columns:
                env = dict(self.base_env)
                if extra is None:
                    cmd = [self.clang] + CFLAGS + self.inc + ['-c', src, '-o', self.path('large.plain.o')]
                else:
                    env.update(extra)
                    cmd = [tool, 'cc'] + CFLAGS + self.inc + ['-c', src, '-o', self.path('large.prof.o')]
                times[name].append(timed_rusage(cmd, env=env)[1])
        p = median(times['plain'])
        print('\n## Compile time (gen_large.py, %d lines, clang -O2 -c, CPU s, median of %d)\n' % (n_lines, rounds))
        print('| ' + ' | '.join(name for name, _, _ in columns) + ' | ' +
              ' | '.join('added (%s)' % name for name, _, _ in columns[1:]) + ' |')
        print('|' + '---|' * (2 * len(columns) - 1))
        print('| ' + ' | '.join('%.2f' % median(times[name]) for name, _, _ in columns) + ' | ' +
              ' | '.join('%+.1f%%' % (100 * (median(times[name]) / p - 1)) for name, _, _ in columns[1:]) + ' |')

    # ---- Spinel's own benchmarks -----------------------------------------
    def spinel_variants(self):
        """The Spinel part's variants, in the order of the tables."""
        vs = ['plain'] + list(SPINEL_PROF_VARIANTS)
        if self.gperftools:
            vs.append('gperftools')
        else:
            vs.remove('ongp')
        if self.baseline_tool:
            vs += ['base-' + v for v in SPINEL_PROF_VARIANTS if v in vs]
        if self.args.variants:
            asked = set(self.args.variants.split(','))
            vs = [v for v in vs if v == 'plain' or v in asked or
                  (v.startswith('base-') and v[5:] in asked)]
        return vs

    def spinel_label(self, v):
        base = v.startswith('base-')
        v = v[5:] if base else v
        label = {'plain': 'plain', 'off': 'off', 'on100': 'on 100 Hz', 'on1k': 'on 1 kHz',
                 'ongp': 'on %d Hz (= gperftools)' % self.gp_hz,
                 'gperftools': 'gperftools (%d Hz asked)' % GPERFTOOLS_HZ}[v]
        return ('base ' + label) if base else label

    def placement_shifts(self):
        """The code shift of each placement in bytes (None: one placement,
        nothing linked before the program)."""
        n = self.args.placements
        return [i * PLACEMENT_LINE // n for i in range(n)] if n > 1 else [None]

    def spinel_build(self, spinel, rb, out, cc):
        """Spinel's own driver with CMD as its C compiler. A spinel-prof
        build being relinked by someone else fails a build now and then:
        retried."""
        for attempt in range(5):
            r = subprocess.run([spinel, rb, '-o', out, '--cc=' + cc], cwd=self.path('spinel'),
                               env=dict(self.base_env), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode == 0 and os.path.exists(out):
                return True
            log('spinel: %s (%s) did not build (attempt %d): %s' % (
                os.path.basename(rb), cc, attempt + 1, r.stderr.decode(errors='replace')[-300:]))
            time.sleep(15)
        return False

    def has_gperftools(self):
        src = self.path('spinel', 'gperftools-check.c')
        with open(src, 'w') as f:
            f.write('int main(void) { return 0; }\n')
        r = subprocess.run([self.clang, src, '-Wl,--no-as-needed', '-lprofiler', '-o',
                            self.path('spinel', 'gperftools-check')],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return r.returncode == 0

    def spinel_env(self, bench, v):
        env = dict(self.base_env)
        kind = v[5:] if v.startswith('base-') else v
        if kind == 'gperftools':
            env['CPUPROFILE'] = self.spinel_profile(bench, v)
            env['CPUPROFILE_FREQUENCY'] = str(GPERFTOOLS_HZ)
        elif kind == 'off':
            env['SPINEL_PROFILE'] = '0'
        elif kind != 'plain':
            env['SPINEL_PROFILE'] = self.spinel_profile(bench, v)
            env['SPINEL_PROFILE_HZ'] = str({'on100': 100, 'on1k': 1000, 'ongp': self.gp_hz}[kind])
            env['SPINEL_PROFILE_QUIET'] = '1'
            if self.args.timeline_mb is not None:
                env['SPINEL_PROFILE_TIMELINE_MB'] = str(self.args.timeline_mb)
        return env

    def spinel_profile(self, bench, v):
        return self.path('spinel-run', '%s.%s.%s' % (bench, v, 'prof' if v == 'gperftools' else 'folded'))

    def spinel_exe(self, bench, v, shift=None):
        build = {'plain': 'plain', 'gperftools': 'gperftools'}.get(v, 'base' if v.startswith('base-') else 'prof')
        return self.spinel_binary(bench, build, shift)

    def spinel_binary(self, bench, build, shift):
        return self.path('spinel', '%s.%s%s' % (bench, build, '' if shift is None else '.p%d' % shift))

    def spinel_samples(self, bench, v):
        """Samples in the profile the run just wrote (None when it has none)."""
        path = self.spinel_profile(bench, v)
        if v == 'gperftools':
            return gperftools_samples(path)
        sprof = path[:-len('.folded')] + '.sprof'
        try:
            return int(json.load(open(sprof))['sample_count'])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        try:
            return sum(int(line.rsplit(' ', 1)[1]) for line in open(path) if line.strip())
        except (OSError, ValueError, IndexError):
            return None

    def spinel_run(self, bench, v, args, shift=None):
        """One timed run of the build at placement SHIFT: (wall s, CPU s,
        samples or None, stdout digest)."""
        kind = v[5:] if v.startswith('base-') else v
        if kind not in ('plain', 'off'):
            # No stale profile read as this run's.
            path = self.spinel_profile(bench, v)
            for p in (path, re.sub(r'\.folded$', '.sprof', path)):
                if os.path.lexists(p):
                    os.unlink(p)
        w, c, _, out = timed_rusage([self.spinel_exe(bench, v, shift)] + args, env=self.spinel_env(bench, v),
                                    cwd=self.path('spinel-run'), rss=False)
        samples = None if kind in ('plain', 'off') else self.spinel_samples(bench, v)
        return w, c, samples, hashlib.sha256(out.encode()).hexdigest()

    def spinel(self, variants):
        home = os.environ.get('SPINEL_HOME')
        spinel = os.path.join(home, 'spinel') if home else None
        if not spinel or not os.path.isfile(spinel):
            print('\n(SPINEL_HOME is not set%s: Spinel\'s own benchmarks skipped)' %
                  ('' if not home else ' to a directory with a spinel script'))
            return
        os.makedirs(self.path('spinel'), exist_ok=True)
        os.makedirs(self.path('spinel-run'), exist_ok=True)
        self.gperftools = self.has_gperftools()
        if not self.gperftools:
            log('gperftools not found (apt-get install libgoogle-perftools-dev): '
                'variants gperftools and "at gperftools\' rate" skipped')
        shifts = self.placement_shifts()
        progs = self.build_spinel(spinel, self.spinel_benches(home), shifts)
        if not progs:
            print('\n(no Spinel benchmark to run: --quick runs only those with quick '
                  'arguments in SPINEL_BENCHMARKS, --only picks among them)')
            return
        if self.args.callgrind:
            self.spinel_instructions(progs, shifts[0])
        if self.args.rounds == 0:
            return
        variants = self.spinel_variants()
        wants_gp = any(v.endswith('ongp') or v == 'gperftools' for v in variants)
        self.gp_hz = (self.gperftools_rate(progs, shifts[0])
                      if self.gperftools and wants_gp else 0)
        if not self.gp_hz:
            variants = [v for v in variants if not v.endswith('ongp')]
        rounds = 1 if self.args.quick else self.args.rounds
        placements = [shifts[rnd % len(shifts)] for rnd in range(rounds)]
        if rounds % len(shifts):
            log('%d rounds over %d placements: they weigh unequally' % (rounds, len(shifts)))
        results, mismatches, loads = self.run_spinel_rounds(progs, variants, placements)
        raw = self.path('spinel-results.json')
        with open(raw, 'w') as f:
            json.dump({'gperftools_hz': self.gp_hz, 'loads': loads,
                       'benchmarks': [[p, a] for p, a in progs], 'placements': placements,
                       'runs': {'%s %s' % k: v for k, v in results.items()}}, f, indent=0)
        log('every run (wall s, CPU s, samples): %s' % raw)
        self.print_spinel(home, progs, variants, results, placements)
        for m in mismatches:
            print('WARNING: output differs from plain: %s' % m)
        print('\nLoad average (1 min) at the start of each round and at the end: %s '
              '(min %.2f, median %.2f, max %.2f; %d vCPUs); at the end (1, 5, 15 min): %s.' % (
                  ' '.join('%.2f' % l for l in loads), min(loads), median(loads), max(loads),
                  os.cpu_count(), ', '.join('%.2f' % l for l in os.getloadavg())))

    def spinel_benches(self, home):
        """(name, .rb path, arguments) of each benchmark of SPINEL_BENCHMARKS
        that --quick and --only keep and SPINEL_HOME has."""
        quick = self.args.quick
        only = self.args.only.split(',') if self.args.only else None
        benches = []
        for rb_name, full, quick_args, callgrind_args in SPINEL_BENCHMARKS:
            if (quick and quick_args is None) or (only and rb_name[:-3] not in only):
                continue
            rb = os.path.join(home, 'benchmark', rb_name)
            if not os.path.exists(rb):
                log('spinel: %s not found: skipped' % rb)
                continue
            benches.append((rb_name[:-3], rb, quick_args if quick else full))
            self.callgrind_args[rb_name[:-3]] = quick_args if quick else callgrind_args
        return benches

    def build_spinel(self, spinel, benches, shifts):
        """Builds every benchmark in each build at each placement, all before
        any run (the builds under test can be relinked by others meanwhile:
        the tool's time stamp is compared). Returns (name, arguments) of
        those that built."""
        builds = [('plain', self.clang), ('prof', '%s cc' % self.tool)]
        if self.gperftools:
            builds.append(('gperftools', '%s -Wl,--no-as-needed -lprofiler' % self.clang))
        if self.baseline_tool:
            builds.append(('base', '%s cc' % self.baseline_tool))
        builds_used = [self.build] + ([os.path.dirname(os.path.dirname(self.baseline_tool))]
                                      if self.baseline_tool else [])
        stamps = {b: build_stamp(b) for b in builds_used}
        pads = {s: ' ' + placement_object(self.clang, self.path('spinel'), s)
                for s in shifts if s is not None}
        progs = []
        for name, rb, args in benches:
            if all(self.spinel_build(spinel, rb, self.spinel_binary(name, b, s), cc + pads.get(s, ''))
                   for s in shifts for b, cc in builds):
                progs.append((name, args))
        for b, stamp in stamps.items():
            if build_stamp(b) != stamp:
                print('\n(warning: %s was relinked while the benchmarks were being built)' % b)
        log('built %d Spinel benchmarks in %s' % (len(progs), self.path('spinel')))
        return progs

    def spinel_instructions(self, progs, shift):
        """--callgrind: each benchmark's instructions (callgrind, at the
        callgrind sizes, sampling off) in plain and each spinel-prof build:
        what frames add, deterministic where wall time cannot separate two
        builds."""
        if not shutil.which('valgrind'):
            print('\n(valgrind not installed: no instruction counts)')
            return
        builds = ['plain', 'prof'] + (['base'] if self.baseline_tool else [])
        labels = {'prof': 'build', 'base': 'base'}
        print("\n## Spinel's benchmarks: instructions (callgrind, sampling off)\n")
        print('Each build\'s instructions and what frames add over plain (`SPINEL_PROFILE=0`; '
              'deterministic: the same binary and arguments count the same to within tens of '
              'instructions).\n')
        print('| benchmark | arguments | plain |' + ''.join(' %s |' % labels[b] for b in builds[1:]))
        print('|---|---|---|' + '---|' * (len(builds) - 1))
        added = {b: [] for b in builds[1:]}
        for name, _ in progs:
            args = self.callgrind_args.get(name, [])
            counts = {b: self.instructions(self.spinel_binary(name, b, shift), args) for b in builds}
            row = '| %s | %s | %d |' % (name, ' '.join(args), counts['plain'])
            for b in builds[1:]:
                ratio = counts[b] / counts['plain']
                added[b].append(ratio)
                row += ' %d (%+.2f %%) |' % (counts[b], 100 * (ratio - 1))
            print(row)
        print('| geometric mean | | |' + ''.join(' %+.2f %% |' % (100 * (geomean(added[b]) - 1))
                                               for b in builds[1:]))

    def instructions(self, exe, args):
        """Instructions callgrind counts in one run of EXE (profiling off:
        under valgrind each sample would cost ~50x more per instruction)."""
        env = dict(self.base_env, SPINEL_PROFILE='0')
        r = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' +
                            self.path('spinel-run', 'callgrind.out'), exe] + args, env=env,
                           cwd=self.path('spinel-run'), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        m = re.search(r'Collected : (\d+)', r.stderr)
        if r.returncode != 0 or not m:
            raise SystemExit('callgrind: %s %s failed (status %d): %s' % (
                exe, ' '.join(args), r.returncode, r.stderr[-300:]))
        return int(m.group(1))

    def gperftools_rate(self, progs, shift):
        """gperftools' delivered rate (samples / CPU s over one run of each
        benchmark; ~250 Hz where CPU timers fire on the 250 Hz tick), the
        rate of the spinel-prof variant compared with it; 0 if it wrote no
        samples."""
        samples = cpu = 0
        for name, args in progs:
            _, c, s, _ = self.spinel_run(name, 'gperftools', args, shift)
            samples += s or 0
            cpu += c
        hz = int(round(samples / cpu)) if cpu > 0 and samples else 0
        if not hz:
            log('gperftools wrote no samples: "at gperftools\' rate" skipped')
        log('gperftools delivered %d Hz (%d samples, %.2f CPU s)' % (hz, samples, cpu))
        return hz

    def run_spinel_rounds(self, progs, variants, placements):
        """Round r runs every benchmark in every variant at placement r, the
        variants' order rotated each round. Returns the runs by (benchmark,
        variant), the rounds whose outputs differ from plain's, and the load
        average at each round's start and at the end."""
        rounds = len(placements)
        results = {(p, v): [] for p, _ in progs for v in variants}
        digests = {}
        mismatches = []
        loads = []
        for rnd in range(rounds):
            loads.append(os.getloadavg()[0])
            log('spinel round %d/%d (load %.2f)' % (rnd + 1, rounds, loads[-1]))
            for p, args in progs:
                order = rotated(variants, rnd)
                for v in order:
                    w, c, s, digest = self.spinel_run(p, v, args, placements[rnd])
                    results[(p, v)].append((w, c, s))
                    digests.setdefault((p, rnd), {})[v] = digest
                if len(set(digests[(p, rnd)].values())) != 1:
                    mismatches.append('%s round %d: %s' % (p, rnd + 1, ', '.join(
                        v for v, d in digests[(p, rnd)].items() if d != digests[(p, rnd)]['plain'])))
        loads.append(os.getloadavg()[0])
        return results, mismatches, loads

    def print_spinel(self, home, progs, variants, results, placements):
        rounds = len(placements)
        names = [p for p, _ in progs]
        args = dict(progs)
        print("\n## Spinel's own benchmarks (SPINEL_HOME=%s%s)\n" % (home, git_describe(home)))
        print('Built with Spinel\'s driver (`spinel FILE --cc=CC -o OUT`): plain and gperftools '
              '(`-lprofiler`, CPUPROFILE_FREQUENCY=%d) with %s, the others with `spinel-prof cc` '
              'of %s%s. Median of %d interleaved rounds (variant order rotated each round); '
              'ratio = variant / plain.' % (
                  GPERFTOOLS_HZ, self.clang, self.build,
                  '; base: of %s' % os.path.dirname(os.path.dirname(self.baseline_tool))
                  if self.baseline_tool else '', rounds))
        shifts = paired.distinct_placements(placements)
        if len(shifts) > 1:
            print('\nEach build is linked at %d code placements, its code moved by %s bytes '
                  '(`--placements`); round r runs placement r mod %d, every variant at the same.' % (
                      len(shifts), ', '.join(str(x) for x in shifts), len(shifts)))
        ratio = self.print_median_tables(names, args, variants, results, rounds)
        fastest = self.print_fastest(names, variants, results)
        self.print_rates(names, variants, results)
        cols = self.print_summary(names, variants, ratio, fastest)
        # The targets on the paired ratios (paired.py): on this machine a
        # process's run time moves by tens of percent, so a median's ratio
        # can say "met" or "missed" where the noise says neither.
        est = paired.print_table(results, names, variants, self.spinel_label, rounds)
        paired.print_placements(results, names, ['off', DEFAULT_VARIANT], placements,
                                self.spinel_label)
        print('\nTargets (issue 17, wall, paired; a verdict needs %g standard errors): '
              'off geomean <= %.2f; on at the default rate (%d Hz) geomean <= %.2f and each <= %.2f; '
              'never above gperftools at its delivered rate.\n' % (
                  paired.CONFIDENCE_SE, paired.OFF_GEOMEAN, DEFAULT_HZ, paired.ON_GEOMEAN,
                  paired.ON_EACH))
        for prefix, c in cols:
            for line in paired.print_targets(results, names, est, self.spinel_label,
                                             DEFAULT_VARIANT, prefix=prefix):
                print('- %s: %s' % (c, line))

    def print_median_tables(self, names, args, variants, results, rounds):
        """The medians' tables, wall then CPU, ratio to plain, and their
        noise. Returns the ratios: {0: wall, 1: CPU}, each by variant, one
        per benchmark."""
        ratio = {0: {}, 1: {}}
        for which, title in ((0, 'Wall time'), (1, 'CPU time (user+sys)')):
            print('\n### %s, ratio to plain\n' % title)
            print('| benchmark | args | plain s (range) |' + ''.join(
                ' %s |' % self.spinel_label(v) for v in variants if v != 'plain'))
            print('|' + '---|' * (2 + len(variants)))
            for p in names:
                base = median([r[which] for r in results[(p, 'plain')]])
                row = '| %s | %s | %.3f (%.0f%%) |' % (p, ' '.join(args[p]) or '-', base,
                                                     100 * spread([r[which] for r in results[(p, 'plain')]]))
                for v in variants:
                    if v == 'plain':
                        continue
                    x = median([r[which] for r in results[(p, v)]]) / base
                    ratio[which].setdefault(v, []).append(x)
                    row += ' %.3f |' % x
                print(row)
            print('| geometric mean | | |' + ''.join(
                ' %.3f |' % geomean(ratio[which][v]) for v in variants if v != 'plain'))
            print('| worst | | |' + ''.join(
                ' %s |' % self.worst(names, ratio[which][v]) for v in variants if v != 'plain'))
            spreads = [spread([r[which] for r in results[(p, v)]]) for p in names for v in variants]
            print('\nNoise: the range (max - min) of a benchmark\'s %d runs in one variant, as a '
                  'fraction of their median: median %.0f%%, largest %.0f%%.' % (
                      rounds, 100 * median(spreads), 100 * max(spreads)))
        return ratio

    def print_fastest(self, names, variants, results):
        """The table of each variant's fastest wall time over plain's.
        Returns those ratios by variant, one per benchmark."""
        # The fastest run of each: on a shared machine, contention only
        # adds time, so it is the figure least disturbed by other load (on
        # a VM whose run times are bimodal per process, the medians of 5
        # can land in different modes for plain and a variant).
        fastest = {}
        for v in variants:
            if v != 'plain':
                fastest[v] = [min(r[0] for r in results[(p, v)]) / min(r[0] for r in results[(p, 'plain')])
                              for p in names]
        print('\n### Wall time, fastest run, ratio to plain\'s fastest\n')
        print('| benchmark |' + ''.join(' %s |' % self.spinel_label(v) for v in variants if v != 'plain'))
        print('|' + '---|' * len(variants))
        for i, p in enumerate(names):
            print('| %s |' % p + ''.join(' %.3f |' % fastest[v][i] for v in variants if v != 'plain'))
        print('| geometric mean |' + ''.join(
            ' %.3f |' % geomean(fastest[v]) for v in variants if v != 'plain'))
        print('| worst |' + ''.join(
            ' %s |' % self.worst(names, fastest[v]) for v in variants if v != 'plain'))
        return fastest

    def print_rates(self, names, variants, results):
        """The delivered rate's table: samples in the profile / CPU s."""
        sampling = [v for v in variants if v not in ('plain', 'off', 'base-off')]
        print('\n### Delivered rate (samples in the profile / CPU s of the run), median\n')
        print('| benchmark |' + ''.join(' %s |' % self.spinel_label(v) for v in sampling))
        print('|' + '---|' * (1 + len(sampling)))
        for p in names:
            row = '| %s |' % p
            for v in sampling:
                hz = [r[2] / r[1] for r in results[(p, v)] if r[2] is not None and r[1] > 0]
                row += ' %.0f |' % median(hz) if hz else ' - |'
            print(row)

    def print_summary(self, names, variants, ratio, fastest):
        """Each variant's geomean and worst, this build and the baseline side
        by side. Returns the columns: (variant prefix, label)."""
        print('\n### Summary: ratio to plain, wall (CPU in brackets)\n')
        print('Medians as above; "fastest runs": the geometric mean over the benchmarks of '
              'the variant\'s fastest wall time / plain\'s fastest.\n')
        kinds = [v for v in variants if v != 'plain' and not v.startswith('base-')]
        cols = [('', 'build')]
        if self.baseline_tool:
            cols.append(('base-', 'base'))
        print('build: %s; base: %s.\n' % (self.build, os.path.dirname(os.path.dirname(self.baseline_tool)))
              if self.baseline_tool else 'build: %s.\n' % self.build)
        print('| variant |' + ''.join(' geomean (%s) | worst (%s) | fastest runs (%s) |' % (c, c, c)
                                      for _, c in cols))
        print('|---|' + '---|---|---|' * len(cols))
        for k in kinds:
            row = '| %s |' % self.spinel_label(k)
            for prefix, _ in cols:
                v = prefix + k
                if v not in ratio[0]:
                    row += ' | | |'
                    continue
                row += ' ×%.3f (×%.3f) | %s (%s) | ×%.3f |' % (
                    geomean(ratio[0][v]), geomean(ratio[1][v]),
                    self.worst(names, ratio[0][v]), self.worst(names, ratio[1][v]),
                    geomean(fastest[v]))
            print(row)
        return cols

    @staticmethod
    def worst(names, ratios):
        i = max(range(len(ratios)), key=lambda j: ratios[j])
        return '%s ×%.3f' % (names[i], ratios[i])

    def alloc(self):
        """CPU profiling (1 kHz) against CPU profiling plus allocation
        sampling at the default rate, same binary, interleaved; and what the
        allocation marks cost with allocation sampling off (against a build
        without them)."""
        only = self.args.only.split(',') if self.args.only else None
        progs = [p for p in ALLOC_PROGRAMS if not only or p in only]
        os.makedirs(self.path('bin'), exist_ok=True)
        for prog in progs:
            src = os.path.join(PROGRAMS_DIR, prog + '.c')
            # Names of their own: the programs part builds <prog>.prof.
            for name, extra in (('marks', {}), ('nomarks', {'SPINEL_PROFILE_ALLOC_SITES': '0'})):
                run_cmd([self.tool, 'cc'] + CFLAGS + self.inc + [src, '-lm', '-o',
                                                                 self.path('bin', '%s.%s' % (prog, name))],
                        dict(self.base_env, **extra))
        cpu_env = self.run_env('on')
        alloc_env = dict(cpu_env, SPINEL_PROFILE_ALLOC='1')
        variants = [('nomarks', 'nomarks', cpu_env), ('cpu', 'marks', cpu_env),
                    ('cpu+alloc', 'marks', alloc_env)]
        results = {(p, v[0]): [] for p in progs for v in variants}
        for rnd in range(self.args.rounds):
            for prog in progs:
                arg = PROGRAMS[prog][1 if self.args.quick else 0]
                order = variants[rnd % 3:] + variants[:rnd % 3]
                outputs = set()
                for name, build, env in order:
                    w, c, _, out = timed_rusage([self.path('bin', '%s.%s' % (prog, build)), arg],
                                                env=env, cwd=self.path('run'))
                    results[(prog, name)].append((w, c))
                    outputs.add(out)
                if len(outputs) != 1:
                    raise SystemExit('%s printed different output with allocation profiling' % prog)
        print('\n## Allocation profiling (SPINEL_PROFILE_ALLOC=1, default rate 524288 B)\n')
        print('Median of %d interleaved runs, CPU s (wall in brackets); all variants sample CPU at %d Hz.'
              % (self.args.rounds, self.args.hz))
        print('| program | cpu CPU s | marks: cpu / nomarks | cpu+alloc / cpu | target <= 1.05 |')
        print('|---|---|---|---|---|')
        for prog in progs:
            m = {v[0]: (median([r[0] for r in results[(prog, v[0])]]),
                        median([r[1] for r in results[(prog, v[0])]])) for v in variants}
            marks = m['cpu'][1] / m['nomarks'][1]
            alloc = m['cpu+alloc'][1] / m['cpu'][1]
            print('| %s | %.3f | %.3f (%.3f) | %.3f (%.3f) | %s |' % (
                prog, m['cpu'][1], marks, m['cpu'][0] / m['nomarks'][0], alloc,
                m['cpu+alloc'][0] / m['cpu'][0], 'ok' if alloc <= 1.05 else 'MISSED'))


def parse_args():
    """The command line, its defaults filled in."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', default=os.path.join(SRC_ROOT, 'build'),
                    help='spinelprof build directory (default: %(default)s)')
    ap.add_argument('--work', default=os.path.join(tempfile.gettempdir(), 'spinelprof-overhead-%d' % os.getuid()),
                    help='where binaries and profiles go (default: %(default)s)')
    ap.add_argument('--clang', help='clang for the other variants (default: the one spinel-prof uses)')
    ap.add_argument('--quick', action='store_true', help='small sizes, 2 rounds, 5k-line compile: proves it works (CI)')
    ap.add_argument('--rounds', type=int, help='interleaved rounds (default 8, --quick 2)')
    ap.add_argument('--hz', type=int, default=1000, help='sampling rate of the "on" variant')
    ap.add_argument('--placements', type=int, choices=PLACEMENT_CHOICES,
                    help='code placements of each Spinel benchmark build, rounds spread over them '
                         '(default 4, --quick 1: where hot loops fall in 64-byte lines moves a '
                         'ratio by more than the cost measured)')
    ap.add_argument('--timeline-mb', type=int, metavar='N',
                    help='SPINEL_PROFILE_TIMELINE_MB for the profiled variants (0: no timeline; '
                         'default: the runtime\'s)')
    ap.add_argument('--levers', action='store_true', help='also the lever variants: all, late, le, finstr-ai')
    ap.add_argument('--baseline', metavar='DIR',
                    help='also the variant base: spinel-prof cc of the spinelprof build in DIR')
    ap.add_argument('--callgrind', action='store_true',
                    help='also count instructions with callgrind: the programs at quick sizes, '
                         'Spinel\'s benchmarks at their callgrind sizes (--rounds 0: counts only)')
    ap.add_argument('--only', help='comma-separated programs (and Spinel benchmarks, without .rb)')
    ap.add_argument('--variants', help='comma-separated variants instead of the default set (plain is always built); '
                    'the Spinel part runs those of its own among off, on100, on1k, ongp, gperftools '
                    '(with --baseline, base- of each too)')
    ap.add_argument('--skip', default='', help='comma-separated parts to skip: programs,micro,sample,startup,compile,spinel,alloc')
    args = ap.parse_args()
    if args.rounds is None:
        args.rounds = 2 if args.quick else 8
    if args.rounds < 0 or (args.rounds == 0 and not args.callgrind):
        ap.error('--rounds must be at least 1 (0 only with --callgrind: counts alone)')
    if args.placements is None:
        args.placements = 1 if args.quick or args.rounds == 0 else 4
    return args


def print_header(b, args):
    """What was measured: when, with what, on what, by which command."""
    print('# spinelprof overhead (%s, clang %s, %s mode, %d rounds)' % (
        time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), b.clang,
        'quick' if args.quick else 'full', args.rounds))
    print('\nMachine: %s.' % machine_facts())
    print('Build under test: %s.' % build_facts(b.build))
    if args.baseline:
        print('Baseline (base): %s.' % build_facts(os.path.abspath(args.baseline)))
    print('Command: %s%s' % ('SPINEL_HOME=%s ' % shlex.quote(os.environ['SPINEL_HOME'])
                             if os.environ.get('SPINEL_HOME') else '',
                             ' '.join(shlex.quote(a) for a in sys.argv)))


def main():
    args = parse_args()
    b = Bench(args)
    skip = set(filter(None, args.skip.split(',')))
    progs = args.only.split(',') if args.only else list(PROGRAMS)
    variants = (BASE_VARIANTS + (['base'] if args.baseline else []) +
                (LEVER_VARIANTS if args.levers else []))
    if args.variants:
        variants = ['plain'] + [v for v in args.variants.split(',') if v != 'plain']
    started = time.time()
    print_header(b, args)
    if 'programs' not in skip:
        b.build_all(progs, variants)
        if args.rounds > 0:
            results = b.run_programs(progs, variants)
            ratios = b.print_table('Programs', progs, variants, results)
            b.print_targets(progs, ratios)
            if 'on' in variants:
                b.print_rss_size(progs, results)
        if args.callgrind:
            b.callgrind(progs, variants)
    if 'micro' not in skip:
        b.callbench()
    if 'sample' not in skip:
        b.samplebench()
        b.interruptbench()
    if 'startup' not in skip:
        b.startup()
    if 'compile' not in skip:
        b.compile_time(variants)
    if 'spinel' not in skip:
        b.spinel(variants)
    if 'alloc' not in skip:
        b.alloc()
    print('\n(took %.0f s)' % (time.time() - started))


if __name__ == '__main__':
    main()
