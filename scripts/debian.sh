# Sourced by setup.sh and fuzz.sh: installs the Debian packages of a list
# that are not installed (as root, or through sudo).
#   install_missing_debian_packages <who says it> <package>...
install_missing_debian_packages() {
  local who="$1" pkg missing=()
  shift
  for pkg in "$@"; do
    [ -n "$pkg" ] || continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "$who: installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
