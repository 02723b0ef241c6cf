#!/usr/bin/python3
# A camera on the loopback for the stream tests: GStreamer's RTSP server (Debian's
# gir1.2-gst-rtsp-server-1.0) serving a live test picture (H.264, a keyframe a second) and a tone (L16)
# at rtsp://127.0.0.1:PORT/live, behind basic authentication when a user and password are given.
# Usage: rtsp_server.py PORT [USER PASSWORD]
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(sys.argv[1])
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch(
    "( videotestsrc is-live=true pattern=smpte ! video/x-raw,width=320,height=240,framerate=25/1"
    " ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=25 ! rtph264pay name=pay0 pt=96"
    " audiotestsrc is-live=true ! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=1"
    " ! rtpL16pay name=pay1 pt=97 )")
factory.set_shared(True)
if len(sys.argv) == 4:
    auth = GstRtspServer.RTSPAuth()
    token = GstRtspServer.RTSPToken()
    token.set_string("media.factory.role", "viewer")
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(sys.argv[2], sys.argv[3]), token)
    server.set_auth(auth)
    permissions = GstRtspServer.RTSPPermissions()
    permissions.add_role_from_structure(
        Gst.Structure.from_string(
            "viewer, media.factory.access=(boolean)true, media.factory.construct=(boolean)true")[0])
    factory.set_permissions(permissions)
server.get_mount_points().add_factory("/live", factory)
server.attach(None)
print("listening", flush=True)
GLib.MainLoop().run()
