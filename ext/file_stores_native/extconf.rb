# frozen_string_literal: true

# Builds the native extension with cargo.
#
# Where the rb_sys gem is installed (from rubygems.org, or Debian 13's
# ruby-rb-sys), its mkmf helper writes the Makefile. Without it (Debian 12
# has no rb_sys package), a plain Makefile runs
# `cargo build --release` in a target folder of its own, installs the library
# under the name Ruby requires, and removes the target folder after install.

require 'mkmf'

EXT = 'ruby_llm/file_stores/native/file_stores_native'
CRATE_DIR = __dir__

begin
  require 'rb_sys/mkmf'
  create_rust_makefile(EXT)
rescue LoadError
  unless find_executable('cargo')
    abort 'cargo is needed to build ruby_llm-file_stores-native: install Rust (https://rustup.rs)'
  end

  # cargo names the library as the platform does (libfile_stores_native.so on
  # Linux, .dylib on macOS); Ruby requires it under DLEXT (.so, .bundle).
  dlext = RbConfig::CONFIG['DLEXT']
  soext = RbConfig::CONFIG['SOEXT'] || (RbConfig::CONFIG['host_os'].include?('darwin') ? 'dylib' : 'so')
  target_dir = File.join(Dir.pwd, 'target')
  install_dir = File.join(RbConfig::CONFIG['sitearchdir'], File.dirname(EXT))
  q = ->(s) { s.to_s.gsub(' ', '\ ') }

  File.write('Makefile', <<~MAKE)
    CARGO ?= cargo
    TARGET_DIR = #{q[target_dir]}
    LIB = $(TARGET_DIR)/release/libfile_stores_native.#{soext}
    DLIB = file_stores_native.#{dlext}
    INSTALL_DIR = $(DESTDIR)#{q[install_dir]}

    all: $(DLIB)

    $(DLIB):
    \t$(CARGO) build --release --manifest-path #{q[File.join(CRATE_DIR, 'Cargo.toml')]} --target-dir $(TARGET_DIR)
    \tcp $(LIB) $(DLIB)

    install: $(DLIB)
    \tmkdir -p $(INSTALL_DIR)
    \tcp $(DLIB) $(INSTALL_DIR)/$(DLIB)
    \trm -rf $(TARGET_DIR)

    clean:
    \trm -rf $(TARGET_DIR) $(DLIB)

    .PHONY: all install clean
  MAKE
end
