"""Builds the Python module with the project's CMake (target llmplan_python_package) and installs
the package it lays out in <build>/python/llmplan: __init__.py, the native _llmplan module and the
generated type stubs. Used by `pip install --no-build-isolation .`."""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.join(HERE, "build-python")
        subprocess.check_call(["cmake", "-S", HERE, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                               "-DLLMPLAN_BUILD_TESTS=OFF", "-DLLMPLAN_BUILD_BENCH=OFF", "-DLLMPLAN_INSTALL=OFF",
                               f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", build, "--target", "llmplan_python_package",
                               "-j", str(os.cpu_count() or 2)])
        package = os.path.join(build, "python", "llmplan")
        target = os.path.join(os.path.abspath(self.build_lib), "llmplan")
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(package):
            shutil.copy2(os.path.join(package, name), target)
        # setuptools expects the extension at its own path: the module built above is that file.
        native = [n for n in os.listdir(package) if n.startswith("_llmplan") and n.endswith(".so")]
        os.makedirs(os.path.dirname(self.get_ext_fullpath(ext.name)), exist_ok=True)
        shutil.copy2(os.path.join(package, native[0]), self.get_ext_fullpath(ext.name))


setup(
    packages=["llmplan"],
    package_dir={"llmplan": "apps/python/llmplan"},
    package_data={"llmplan": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("llmplan._llmplan", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
