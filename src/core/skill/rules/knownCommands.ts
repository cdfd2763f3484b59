/**
 * Programs a skill may run without saying where they come from (issue 25, `command-undeclared`): shell words and
 * builtins, the base tools of Linux, macOS and Windows, language runtimes and their package managers, and the
 * command-line tools of widely used platforms, build systems and document tools. An agent that meets one of these
 * missing knows what to install; a program outside the list, run again and again and never introduced, leaves it
 * guessing. The list errs on the side of known: a tool left off it costs a false finding.
 */
/** Shell words and the base utilities every system has: they say nothing about what a skill is built on. */
const BASE_WORDS = `
. : [ [[ alias bg break builtin case cd command continue declare do done echo elif else esac eval exec exit export false fg fi for function getopts hash if in jobs kill let local printf pushd popd pwd read readonly return select set shift source test then time trap true type typeset ulimit umask unalias unset until wait while
awk base64 basename bash bc bzip2 cat chgrp chmod chown clear cmp column comm cp cron crontab csplit curl cut date dd df diff dirname du env expand expr fd file find fmt fold free grep egrep fgrep gunzip gzip head history hostname iconv id install join less ln locale logger ls lsof man md5sum mkdir mktemp more mv nano netstat nice nl nohup nproc od paste patch ping pkill pgrep printenv ps readlink realpath rename rev rm rmdir rsync scp sed seq sftp sh sha1sum sha256sum shasum shuf sleep sort split ssh ssh-add ssh-keygen stat strings stty su sudo sum sync tac tail tar tee telnet timeout top touch tput tr tree truncate tty uname uniq unzip uptime vi vim view watch wc wget whereis which who whoami xargs xxd yes zip zsh fish ksh dash tcsh csh nvim emacs htop jobs killall lsblk mount umount ip ss ifconfig dig nslookup host traceroute nc ncat socat openssl gpg systemctl journalctl service sysctl dmesg lscpu zcat zgrep xz unxz zstd 7z unrar envsubst hexdump
`;

const WORDS = `
open pbcopy pbpaste osascript defaults launchctl say afplay security codesign xcrun xcodebuild xcode-select xattr plutil sw_vers softwareupdate mdfind mdls spctl ditto hdiutil diskutil caffeinate sips screencapture networksetup scutil pmset notarytool
xdg-open xclip xsel notify-send paplay aplay apt apt-get apt-cache dpkg snap flatpak dnf yum rpm apk pacman zypper brew port nix
cmd powershell pwsh start where certutil winget choco scoop reg sc wsl explorer icacls robocopy
git gh glab hub svn hg git-lfs
python python3 py pip pip3 pipx uv uvx poetry pdm hatch conda mamba micromamba virtualenv venv pyenv pytest tox nox black ruff mypy pyright flake8 pylint isort jupyter ipython streamlit uvicorn gunicorn flask django-admin celery alembic coverage twine
node nodejs npm npx yarn pnpm pnpx bun bunx deno nvm fnm volta corepack tsc tsx ts-node eslint prettier biome jest vitest mocha playwright cypress webpack vite rollup esbuild turbo nx lerna next nuxt astro svelte-kit expo eas react-native ng vue nest storybook wrangler vercel netlify firebase supabase prisma drizzle-kit
ruby gem bundle bundler rake rails irb rbenv rvm rspec rubocop
php composer artisan phpunit
java javac jar jshell mvn gradle kotlin kotlinc scala sbt sdk
go gofmt golangci-lint cargo rustc rustup rustfmt cross
dotnet nuget msbuild csc
gcc g++ cc c++ clang clang++ clang-format make cmake ninja meson bazel gdb lldb valgrind strace ld nm objdump otool lipo
swift swiftc swift-format swiftlint pod fastlane xcodegen tuist carthage flutter dart adb emulator sdkmanager avdmanager watchman
R Rscript julia matlab octave lua luarocks perl cpan raku ghc cabal stack elixir mix erl iex zig nim ocaml opam dune
docker docker-compose podman buildah kubectl helm kind minikube k3d k9s kustomize skaffold tilt terraform tofu terragrunt packer vault consul nomad ansible ansible-playbook pulumi vagrant
aws sam cdk eksctl gcloud gsutil bq az func azd doctl flyctl fly heroku railway render stripe twilio
psql pg_dump pg_restore pg_ctl createdb dropdb mysql mysqldump mariadb sqlite3 redis-cli mongosh mongo mongodump duckdb clickhouse sqlcmd cqlsh
jq yq xq gron fzf rg ag ack bat eza exa http https httpie grpcurl websocat ngrok mkcert ab wrk hey k6 locust
ffmpeg ffprobe convert magick identify mogrify pandoc pdflatex xelatex lualatex latex latexmk bibtex biber tlmgr kpsewhich texhash pdftotext pdftoppm pdfinfo qpdf gs ghostscript tesseract libreoffice soffice inkscape dot neato mmdc plantuml sox lame yt-dlp youtube-dl aria2c exiftool optipng pngquant cwebp
shellcheck shfmt hadolint trivy grype syft semgrep codeql bandit gitleaks trufflehog snyk sonar-scanner cosign act pre-commit husky lefthook direnv asdf mise
ollama nvidia-smi torchrun accelerate deepspeed huggingface-cli hf wandb mlflow dvc tensorboard spark-submit pyspark
code cursor code-insiders claude codex gemini copilot
pdftk pdfunite pdfseparate pdfjam mutool gpgconf gpg-agent gpg-connect-agent gpgsm
rclone ufw iptables ip6tables nft firewall-cmd nmap masscan msfconsole msfvenom msfdb searchsploit sqlmap tshark tcpdump wireshark hydra john hashcat nikto gobuster ffuf dirb wfuzz wpscan whatweb amass subfinder nuclei httpx aircrack-ng responder crackmapexec netexec enum4linux burpsuite zap
forge cast anvil chisel foundryup hardhat solc truffle ganache
jcmd jstack jmap jps jstat jconsole jlink jpackage keytool jdeps javap
ioreg system_profiler log csrutil kextstat lsappinfo tmutil mdutil nvram
op bw pass lpass keepassxc-cli aws-vault sops age
binwalk unsquashfs mksquashfs readelf r2 radare2 qemu-system-x86_64 qemu-arm
xmllint xsltproc telepresence rabbitmqctl rabbitmq-plugins nginx apachectl httpd redis-server mongod postgres pg_isready initdb memcached caddy haproxy certbot wp drush
`;

/**
 * Words that start a line of code in other languages (JavaScript, Python, …) pasted into a shell block: never a
 * program to install.
 */
export const NOT_PROGRAMS: ReadonlySet<string> = new Set(
  'await async const let var import from def class return print puts fn func public private static new yield lambda try catch finally raise throw with assert pass module package use require include struct enum interface void int string console self this super char float double bool auto unsigned typedef'.split(' '),
);

export const BASE_COMMANDS: ReadonlySet<string> = new Set(BASE_WORDS.split(/\s+/).filter(Boolean));
export const KNOWN_COMMANDS: ReadonlySet<string> = new Set([...BASE_COMMANDS, ...WORDS.split(/\s+/).filter(Boolean)]);
