# The Debian package (issue 31 item 10), included from CMakeLists.txt:
#   cmake --build build && cpack --config build/CPackConfig.cmake -G DEB
# writes quire_<version>_amd64.deb with what `cmake --install` puts under
# /usr: the quire command, its modules (lib/quire/quire-pdf.so, quire-pg.so,
# quire-read-pdf.so), libquire.so and libquire.a, the headers
# (include/quire/), lib/pkgconfig/quire.pc, the man pages quire.1 and
# quire-spec.5 and the bash completion. Depends: what dpkg-shlibdeps finds
# for every ELF file in it (libc6, libcairo2, libpq5, libpoppler-glib8, ...)
# when it is installed, else the Debian 12 names below, plus a font; the
# fonts that cover more scripts are recommended.
set(CPACK_PACKAGE_NAME quire)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "quire")
set(CPACK_PACKAGE_CONTACT "quire maintainers <quire@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "artifact rendering engine: JSON spec to docx, xlsx, pptx, pdf, html, png")
set(CPACK_PACKAGE_DESCRIPTION
  "quire renders a JSON spec to .docx, .xlsx, .pptx, .pdf, .html and .png, keeps versioned specs in a store (a folder or PostgreSQL) and reads office files and PDFs back into specs. This package has the quire command and its modules, libquire (shared and static), its headers, pkg-config file, man pages and bash completion.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # quire_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION text)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/quire")
find_program(QR_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(QR_DEB_FONTS "fonts-dejavu-core")
if(QR_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${QR_DEB_FONTS}") # joined to what dpkg-shlibdeps finds
else()
  # Debian 12 (bookworm) names of the libraries the ELF files link.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libjansson4, libxml2, libzip4, zlib1g, \
libfontconfig1, libharfbuzz0b, libfreetype6, libfribidi0, libcairo2, libpango-1.0-0, \
libpangocairo-1.0-0, libpangoft2-1.0-0, libglib2.0-0, libpq5, libpoppler-glib8, \
libcmark-gfm0.29.0.gfm.6, libcmark-gfm-extensions0.29.0.gfm.6, ${QR_DEB_FONTS}")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-extra, fonts-noto-core, fonts-noto-cjk")
# libc-bin's ldconfig trigger (cmake/deb/triggers) refreshes the loader cache
# for libquire.so.0, as Debian's own libraries do; postinst and postrm do
# nothing (they stand in for CPack's, which call ldconfig on whatever system
# runs dpkg), so an install into a scratch root (dpkg --root) needs no shell
# inside it and touches nothing on the host.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/deb/triggers
  ${CMAKE_CURRENT_LIST_DIR}/deb/postinst ${CMAKE_CURRENT_LIST_DIR}/deb/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_GENERATOR DEB)
include(CPack)
