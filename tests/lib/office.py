"""LibreOffice for the tests: one headless conversion with a throwaway
profile (a profile of its own, so parallel tests never share one, removed
afterwards), the way every test that compares with LibreOffice calls it.

    from office import soffice_convert
    soffice_convert("pdf", [deck_pptx], outdir)   # LibreOffice's PDF export
    soffice_convert("csv:Text - txt - csv (StarCalc):44,34,76,1", xlsx, outdir, timeout=600)

Returns the CompletedProcess (output captured as text); the converted
files are in outdir, named after the inputs with the new extension. A test
that converts many times passes profile= (a folder of its own, kept), so
LibreOffice makes its profile once.
"""
import shutil
import subprocess
import tempfile


def soffice_convert(to, files, outdir, timeout=900, profile=None):
    prof = profile or tempfile.mkdtemp(prefix="lo-profile-")
    try:
        return subprocess.run(["soffice", "-env:UserInstallation=file://" + prof, "--headless",
                               "--convert-to", to, "--outdir", outdir] + list(files),
                              capture_output=True, text=True, timeout=timeout)
    finally:
        if not profile:
            shutil.rmtree(prof, ignore_errors=True)
