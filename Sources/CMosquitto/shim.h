// libmosquitto (the MQTT 5 client library, Debian's libmosquitto-dev 2.0.11) and its protocol constants.
// Everything it needs imports as it is (mqtt5_property / mqtt5_return_codes are plain enums); no macros shimmed.
#ifndef QUEUED_CMOSQUITTO_SHIM_H
#define QUEUED_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
