# -*- Python -*-
# lit configuration for spinelprof. Suites by layer: Instrumentation/ (IR,
# opt -load-pass-plugin), Runtime/ (end to end: clang -fpass-plugin, run,
# FileCheck the profile), tools/ (spinel-prof commands). Inputs/ holds
# helper files and is not searched for tests.
import os
import shutil
import lit.formats

config.name = 'spinelprof'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.ll', '.c', '.test']
config.excludes = ['Inputs']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spinelprof_obj_root, 'test')

# The programs the tests run see a clean profiler environment.
for var in list(os.environ):
    if var.startswith('SPINEL_PROFILE') or var.startswith('SPINELPROF'):
        config.environment.pop(var, None)
config.environment['LC_ALL'] = 'C'
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
