# CMake toolchain file: bare-metal Cortex-M4 with Debian's gcc-arm-none-eabi.
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=arm-none-eabi-cortex-m4.cmake
# CMAKE_SYSTEM_PROCESSOR names the core: find_package(benchrack_stub) picks
# the stub library built for it (libbenchrack-stub-cortex-m4.a).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m4)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
# No C library to link a test program against: check the compiler with a
# static library instead of an executable.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -mfloat-abi=soft -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--build-id=sha1")
