# frozen_string_literal: true

require 'English'
require 'fileutils'
require 'socket'
require 'tmpdir'

module Bench
  # PostgreSQL and the local S3 server for the Active Storage benchmarks,
  # started the way bin/test-active-storage starts them: the newest installed
  # PostgreSQL in a temporary folder (in memory where /dev/shm is), moto's S3
  # server (spec/active_storage/s3_server), both on 127.0.0.1 and free ports.
  #
  #   Bench::Servers.run { |env| system(env, 'ruby', 'script.rb') }
  #
  # The block gets the environment the spec application
  # (spec/active_storage/support/rails_app.rb) reads; both servers stop after it.
  module Servers
    ROOT = File.expand_path('../..', __dir__)
    S3_SERVER = File.join(ROOT, 'spec/active_storage/s3_server')

    module_function

    def run
      base = File.writable?('/dev/shm') ? '/dev/shm' : Dir.tmpdir
      work = Dir.mktmpdir('ruby_llm_bench', base)
      File.chmod(0o755, work)
      begin
        s3 = capture(S3_SERVER, 'start', work)
        url = start_postgresql(File.join(work, 'pgdata'))
        FileUtils.mkdir_p(File.join(work, 'app'))
        yield({ 'RUBY_LLM_AS_DIR' => File.join(work, 'app'), 'DATABASE_URL' => url,
                'RUBY_LLM_AS_S3_ENDPOINT' => s3, 'RUBY_LLM_AS_S3_BUCKET' => 'bench' })
      ensure
        system(S3_SERVER, 'stop', work)
        stop_postgresql(File.join(work, 'pgdata'))
        FileUtils.rm_rf(work)
      end
    end

    def capture(*command)
      out = IO.popen(command, &:read)
      raise "#{command.join(' ')} failed" unless $CHILD_STATUS.nil? || $CHILD_STATUS.success?

      out.strip
    end

    def pg_bin
      Dir['/usr/lib/postgresql/*/bin'].max_by { |dir| Gem::Version.new(dir[%r{postgresql/([\d.]+)/}, 1]) } ||
        raise('PostgreSQL is not installed: run bin/setup')
    end

    # initdb and postgres refuse to run as root: as postgres then.
    def as_postgres(*command)
      command = ['runuser', '-u', 'postgres', '--', *command] if Process.uid.zero?
      system(*command, out: File::NULL) || raise("#{command.join(' ')} failed")
    end

    def start_postgresql(data)
      FileUtils.mkdir_p(data)
      FileUtils.chown('postgres', 'postgres', data) if Process.uid.zero?
      as_postgres("#{pg_bin}/initdb", '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8')
      port = TCPServer.open('127.0.0.1', 0) { |server| server.addr[1] }
      as_postgres("#{pg_bin}/pg_ctl", '-D', data, '-l', "#{data}/server.log", '-w', '-s', '-o',
                  "-p #{port} -k #{data} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", 'start')
      as_postgres("#{pg_bin}/createdb", '-h', '127.0.0.1', '-p', port.to_s, '-U', 'postgres', 'ruby_llm_bench')
      "postgresql://postgres@127.0.0.1:#{port}/ruby_llm_bench"
    end

    def stop_postgresql(data)
      return unless File.exist?(File.join(data, 'postmaster.pid'))

      as_postgres("#{pg_bin}/pg_ctl", '-D', data, '-m', 'immediate', '-s', 'stop')
    rescue RuntimeError
      nil
    end
  end
end
