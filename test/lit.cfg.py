# -*- Python -*-
# lit configuration for spinelprof. Suites by layer: Instrumentation/ (IR,
# opt -load-pass-plugin), Runtime/ (end to end: clang -fpass-plugin, run,
# FileCheck the profile), tools/ (spinel-prof commands). Inputs/ holds
# helper files and is not searched for tests.
import os
import shutil
import subprocess
import lit.formats

config.name = 'spinelprof'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.ll', '.c', '.test']
config.excludes = ['Inputs']
# The stress suite (test/Stress/) runs on its own: `ninja check-stress`
# passes --param stress=1; `check` leaves it out to stay quick.
if not lit_config.params.get('stress'):
    config.excludes.append('Stress')
else:
    # A real full filesystem needs a small tmpfs (root, and a kernel that
    # lets this process mount); without one, output-errors.c still
    # simulates it with a short write.
    import subprocess
    import tempfile
    probe = tempfile.mkdtemp(prefix='spinelprof-mount-')
    if subprocess.call(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
        subprocess.call(['umount', probe])
        config.available_features.add('can-mount-tmpfs')
    else:
        lit_config.note('cannot mount a tmpfs; Stress/full-filesystem.test is skipped')
    os.rmdir(probe)
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spinelprof_obj_root, 'test')

# The programs the tests run see a clean profiler environment.
for var in list(os.environ):
    if var.startswith('SPINEL_PROFILE') or var.startswith('SPINELPROF'):
        config.environment.pop(var, None)
config.environment['LC_ALL'] = 'C'
# Programs sample at 1 kHz unless a test says otherwise: the runtime's
# default (100 Hz) would give the statistical checks of short runs a tenth
# of the samples their bounds are set for. bad-flags.c checks the default.
config.environment['SPINEL_PROFILE_HZ'] = '1000'
# The golden-file switch (test/tools/Inputs/golden.py) is the one variable
# let through: `SPINELPROF_BLESS=1 ninja -C build check` rewrites goldens.
if os.environ.get('SPINELPROF_BLESS'):
    config.environment['SPINELPROF_BLESS'] = os.environ['SPINELPROF_BLESS']
config.environment['PATH'] = os.pathsep.join(
    [config.llvm_tools_dir, config.spinelprof_bin_dir, os.environ.get('PATH', '')])

lib = config.spinelprof_lib_dir
config.substitutions.append(('%plugin', os.path.join(lib, 'SpinelProf.so')))
config.substitutions.append(('%rtlib', os.path.join(lib, 'libspinelprof_rt.a')))
config.substitutions.append(('%spinel-prof', os.path.join(config.spinelprof_bin_dir, 'spinel-prof')))
config.substitutions.append(('%clang_prof', '%s -fpass-plugin=%s -gline-tables-only -I%s' % (
    config.clang, os.path.join(lib, 'SpinelProf.so'), config.spinelprof_include_dir)))
config.substitutions.append(('%clang', config.clang))
config.substitutions.append(('%opt', os.path.join(config.llvm_tools_dir, 'opt')))
config.substitutions.append(('%include', config.spinelprof_include_dir))
config.substitutions.append(('%examples', os.path.join(config.spinelprof_src_root, 'examples')))
config.substitutions.append(('%inputs', os.path.join(config.test_source_root, 'Inputs')))
config.substitutions.append(('%python', config.python_executable))
config.substitutions.append(('%build_root', config.spinelprof_obj_root))
config.substitutions.append(('%src_root', config.spinelprof_src_root))

config.available_features.add('llvm-%d' % config.llvm_version_major)

# A sanitized build (cmake/Sanitizers.cmake): config.clang adds the
# sanitizers, so test programs are sanitized like the runtime they link.
# Features let a test state why it cannot run under one (docs/reliability.md);
# any report fails the program that makes it.
sanitizers = [s for s in getattr(config, 'sanitize', '').split(',') if s]
for name, feature in (('address', 'asan'), ('undefined', 'ubsan'), ('thread', 'tsan')):
    if name in sanitizers:
        config.available_features.add(feature)
if sanitizers:
    config.available_features.add('sanitized')
    common = 'halt_on_error=1:abort_on_error=0:print_stacktrace=1'
    config.environment['ASAN_OPTIONS'] = common + ':detect_leaks=0:exitcode=99'
    config.environment['UBSAN_OPTIONS'] = common + ':exitcode=99'
    # die_after_fork=0: the profiler starts a sampler thread in the fork
    # child of a multi-threaded program (every profiled program is one),
    # which TSan refuses by default; the child is then checked like any
    # other program.
    config.environment['TSAN_OPTIONS'] = (common + ':exitcode=99:second_deadlock_stack=1'
                                          ':die_after_fork=0:suppressions=' +
                                          os.path.join(config.test_source_root,
                                                       'tsan-suppressions.txt'))
# Ruby (Debian's `ruby`), which reads a .rb's definition lines for
# `spinel-prof run` and `spinel-prof symbols`; README's command 1 installs
# it. Tests that need it say `REQUIRES: ruby`.
if shutil.which('ruby'):
    config.available_features.add('ruby')
else:
    lit_config.note('no ruby on PATH; .rb location tests skipped')

# A real Spinel, when one is installed: SPINEL_HOME is its directory (the one
# holding the `spinel` script). Tests that need it say `REQUIRES: spinel` and
# are reported as UNSUPPORTED (skipped) without it.
spinel_home = os.environ.get('SPINEL_HOME')
if spinel_home and os.path.isfile(os.path.join(spinel_home, 'spinel')):
    config.available_features.add('spinel')
    config.substitutions.append(('%spinel_home', spinel_home))
elif spinel_home:
    lit_config.note('SPINEL_HOME=%s has no spinel script; real-Spinel tests skipped' % spinel_home)
else:
    lit_config.note('SPINEL_HOME is not set; real-Spinel tests skipped')

# The real consumers of spinel-prof's outputs (issue 5). CI installs all of
# them (Debian golang-1.19-go and chromium; `npm ci` in test/tools/web) and
# must run these tests, so under CI=true a missing one is an error;
# elsewhere it makes its tests UNSUPPORTED (skipped) with a note.
def missing_consumer(message):
    if os.environ.get('CI') == 'true':
        lit_config.fatal(message + ' (CI must install it)')
    lit_config.note(message + '; its tests are skipped')
go = '/usr/lib/go-1.19/bin/go'
if os.path.isfile(go):
    config.available_features.add('pprof')
    config.substitutions.append(('%go', go))
else:
    missing_consumer('%s not found (Debian golang-1.19-go)' % go)
chromium = os.environ.get('SPINELPROF_CHROMIUM', '/usr/bin/chromium')
if os.path.isfile(chromium):
    config.available_features.add('chromium')
    config.environment['SPINELPROF_CHROMIUM'] = chromium
else:
    missing_consumer('%s not found (Debian chromium)' % chromium)
web = os.path.join(config.test_source_root, 'tools', 'web')
node = shutil.which('node')
if node and all(os.path.isdir(os.path.join(web, 'node_modules', m))
                for m in ('playwright-core', 'ajv', 'speedscope')):
    config.available_features.add('node-deps')
    config.substitutions.append(('%node', node))
    config.substitutions.append(('%web', web))
else:
    missing_consumer('node or test/tools/web/node_modules missing (npm ci --prefix test/tools/web)')

# Profiles written to a character device (docs/formats.md, "Output paths")
# are tested on a null device made with mknod in the tests' own directory,
# never on /dev/null. That needs CAP_MKNOD and a file system without nodev;
# elsewhere those tests say `REQUIRES: can-mknod` and are skipped.
def can_mknod():
    import stat
    import tempfile
    os.makedirs(config.test_exec_root, exist_ok=True)
    directory = tempfile.mkdtemp(prefix='mknod-probe-', dir=config.test_exec_root)
    try:
        node = os.path.join(directory, 'null')
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        fd = os.open(node, os.O_WRONLY)
        os.write(fd, b'probe')
        os.close(fd)
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(directory, ignore_errors=True)
if can_mknod():
    config.available_features.add('can-mknod')
else:
    lit_config.note('cannot make a character device with mknod here; '
                    'tests of profiles written to a device are skipped')

# libc6-dbg: the separate debug file of the libc test programs load, found
# by its build-id as spinel-prof finds it (docs/spinel.md, "Native time").
def libc_debug_file():
    import struct
    try:
        out = subprocess.run(['ldd', '/bin/true'], capture_output=True, text=True).stdout
    except OSError:
        return None
    paths = [l.split('=>')[1].split()[0] for l in out.splitlines()
             if 'libc.so.6' in l and '=>' in l]
    if not paths:
        return None
    with open(paths[0], 'rb') as f:
        image = f.read()
    at = image.find(b'GNU\0', 0)
    while at >= 12:
        namesz, descsz, kind = struct.unpack_from('<III', image, at - 12)
        if namesz == 4 and kind == 3 and 8 <= descsz <= 64:
            bid = image[at + 4:at + 4 + descsz].hex()
            path = '/usr/lib/debug/.build-id/%s/%s.debug' % (bid[:2], bid[2:])
            return path if os.path.isfile(path) else None
        at = image.find(b'GNU\0', at + 1)
    return None
if libc_debug_file():
    config.available_features.add('libc6-dbg')
else:
    lit_config.note('no libc debug file (apt-get install libc6-dbg): '
                    'the tests of naming libc from it are unsupported')
