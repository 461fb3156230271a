"""Activation layers (Keras 3's ``keras/src/layers/activations/``)."""
